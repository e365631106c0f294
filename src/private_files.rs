//! Files only the server's own user may read: the generated token key, the
//! SQLite database and the mails written instead of sent (they hold
//! invitation tokens). Each is created 0600, in directories created 0700,
//! whatever the process's umask; systemd's `UMask=0077` does the same for
//! the unit, but a server started by hand or in a container gets the
//! shell's umask, usually 0022.
//!
//! A file of ours found readable by others (made by an older release) is
//! narrowed to 0600 where it is opened. A directory that exists already
//! keeps its mode: it may be one the operator chose and shares
//! (`HEXPOST_DATA_DIR=.`), and the files in it are private either way.

use std::fs::{self, OpenOptions, Permissions};
use std::io::{self, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::Path;

pub const FILE_MODE: u32 = 0o600;
pub const DIR_MODE: u32 = 0o700;

/// Creates `dir` and any missing parent, each created one 0700.
pub fn create_dir(dir: &Path) -> io::Result<()> {
    fs::DirBuilder::new()
        .recursive(true)
        .mode(DIR_MODE)
        .create(dir)
}

/// Writes `contents` to `path`, a new file 0600; an existing one is
/// narrowed to 0600 before it is overwritten.
pub fn write(path: &Path, contents: &[u8]) -> io::Result<()> {
    narrow(path)?;
    let mut file = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(FILE_MODE)
        .open(path)?;
    file.write_all(contents)
}

/// Makes sure `path` exists and is 0600: an empty file if it was missing
/// (SQLite takes an empty file for a new database, and gives its `-wal`
/// and `-shm` files the database file's mode).
///
/// An existing file is never opened: closing any descriptor of a file
/// drops every POSIX lock the process holds on it, and SQLite's
/// connections in this process may hold some (SQLite then fails with
/// "disk I/O error").
pub fn ensure(path: &Path) -> io::Result<()> {
    match OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(FILE_MODE)
        .open(path)
    {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => narrow(path),
        Err(e) => Err(e),
    }
}

/// Narrows an existing file that others may read to 0600; a missing one
/// is left missing.
pub fn narrow(path: &Path) -> io::Result<()> {
    match fs::metadata(path) {
        Ok(meta) if meta.is_file() && meta.permissions().mode() & 0o077 != 0 => {
            fs::set_permissions(path, Permissions::from_mode(FILE_MODE))
        }
        Ok(_) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(path: &Path) -> u32 {
        fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn files_and_directories_are_private_whatever_existed() {
        let root = std::env::temp_dir().join(format!("hexpost-private-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        let dir = root.join("a").join("b");
        create_dir(&dir).unwrap();
        assert_eq!(mode(&root), DIR_MODE);
        assert_eq!(mode(&root.join("a")), DIR_MODE);
        assert_eq!(mode(&dir), DIR_MODE);

        let new = dir.join("new");
        write(&new, b"secret").unwrap();
        assert_eq!(mode(&new), FILE_MODE);
        assert_eq!(fs::read(&new).unwrap(), b"secret");

        let old = dir.join("old");
        fs::write(&old, b"old text, longer").unwrap();
        fs::set_permissions(&old, Permissions::from_mode(0o644)).unwrap();
        write(&old, b"new").unwrap();
        assert_eq!(mode(&old), FILE_MODE);
        assert_eq!(fs::read(&old).unwrap(), b"new");

        let empty = dir.join("db");
        ensure(&empty).unwrap();
        assert_eq!(mode(&empty), FILE_MODE);
        fs::write(&empty, b"kept").unwrap();
        fs::set_permissions(&empty, Permissions::from_mode(0o664)).unwrap();
        ensure(&empty).unwrap();
        assert_eq!(mode(&empty), FILE_MODE);
        assert_eq!(fs::read(&empty).unwrap(), b"kept");

        narrow(&dir.join("missing")).unwrap();
        assert!(!dir.join("missing").exists());
        let _ = fs::remove_dir_all(&root);
    }
}
