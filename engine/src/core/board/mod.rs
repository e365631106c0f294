//! The board: fixed topology plus the per-game layout.

pub mod layout;
pub mod sets;
pub mod topology;

pub use layout::{Board, HarborKind, LayoutKind, Terrain, Tile};
pub use sets::{CardSet, EdgeSet, NodeSet, ResourceSet};
pub use topology::{EdgeId, HexId, NodeId, topology};
