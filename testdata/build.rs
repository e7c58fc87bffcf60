//! Writes every document of `openapi/` into `$OUT_DIR/openapi/`, decompressing
//! the large ones (stored as `<name>.gz`), so tests read plain files by path.

use std::fs;
use std::io::{self, Read};
use std::path::Path;

fn main() -> io::Result<()> {
    let source = Path::new("openapi");
    println!("cargo::rerun-if-changed={}", source.display());
    let out_dir = std::env::var_os("OUT_DIR").ok_or_else(|| io::Error::other("OUT_DIR unset"))?;
    let target = Path::new(&out_dir).join("openapi");
    fs::create_dir_all(&target)?;
    for entry in fs::read_dir(source)? {
        let path = entry?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        match name.strip_suffix(".gz") {
            Some(plain) => {
                let mut bytes = Vec::new();
                flate2::read::GzDecoder::new(fs::File::open(&path)?).read_to_end(&mut bytes)?;
                fs::write(target.join(plain), bytes)?;
            }
            None => {
                fs::copy(&path, target.join(name))?;
            }
        }
    }
    Ok(())
}
