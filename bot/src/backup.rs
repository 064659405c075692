//! `gaugebot backup PATH`: an online, consistent copy of the SQLite database (`VACUUM INTO`, which
//! reads one snapshot while the bot keeps running), created readable by its owner only and never
//! over an existing file. The copy holds every unrevealed dice seed, like the database itself.
//! For PostgreSQL, `pg_dump` is the tool (docs/DEPLOY.md, "Backups").

use std::path::Path;

use anyhow::{bail, Context as _};
use gaugebot_store::backend::Database;

/// Creates `path` empty, 0600 on Unix; refuses an existing file.
fn create_private(path: &Path) -> anyhow::Result<()> {
    match gaugebot_store::sqlite::create_new_private(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => bail!(
            "{} exists: a backup never overwrites a file (choose a new name)",
            path.display()
        ),
        Err(e) => Err(e).with_context(|| format!("cannot create {}", path.display())),
    }
}

/// Copies the database `db` into the new file `path`; returns what to tell the operator.
pub async fn backup(db: &str, path: &Path) -> anyhow::Result<String> {
    let source = match Database::parse(db) {
        Database::Postgres(_) => bail!(
            "the database is PostgreSQL: back it up with pg_dump into a private file \
             (docs/DEPLOY.md, \"Backups\")"
        ),
        Database::Sqlite(path) if path == ":memory:" || path.is_empty() => {
            bail!("an in-memory database has nothing to back up")
        }
        Database::Sqlite(path) => path,
    };
    if !Path::new(&source).exists() {
        bail!("no database at {source}");
    }
    let target = path
        .to_str()
        .context("the backup's path is not UTF-8")?
        .to_string();
    create_private(path)?;
    let copy = gaugebot_store::sqlite::vacuum_into(&source, &target)
        .await
        .with_context(|| format!("copying {source} into {target}"));
    if let Err(e) = copy {
        // Leave no empty or partial file behind.
        std::fs::remove_file(path).ok();
        return Err(e);
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
            .with_context(|| format!("making {target} private"))?;
    }
    Ok(format!(
        "backed up {source} into {target} (readable by its owner only: it holds the unrevealed \
         dice seeds)"
    ))
}
