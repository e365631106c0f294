DROP TABLE used_jtis;
