//! Reading input with a size limit. Node offsets are 32-bit, and the tree of a manifest costs
//! several times its text, so an input past a few GB can only end in an out-of-memory kill;
//! it is refused before it is parsed, with a message, instead. The limit applies while
//! reading, so an endless stdin is cut off rather than buffered.

use std::io::Read;

/// 2 GiB: about 700,000 exported objects, far past any honest ResourceList.
pub const DEFAULT_MAX_INPUT_BYTES: u64 = 2 << 30;

/// The largest input a 32-bit offset can address.
const HARD_MAX_INPUT_BYTES: u64 = u32::MAX as u64 - 1;

/// `TAILOR_MAX_INPUT_BYTES` when set (capped at the 32-bit limit), else
/// [`DEFAULT_MAX_INPUT_BYTES`]; a value that is not a positive number is an error. An
/// environment variable rather than a functionConfig field: the functionConfig is part of the
/// input being limited.
pub fn max_input_bytes() -> Result<u64, String> {
    Ok(crate::env::max_input_bytes(DEFAULT_MAX_INPUT_BYTES)?.min(HARD_MAX_INPUT_BYTES))
}

/// Reads all of `reader` as bytes, refusing more than the limit; `what` names the input in
/// messages (`input`, a file name).
pub fn read_bytes(reader: impl Read, what: &str) -> Result<Vec<u8>, String> {
    read_bytes_limited(reader, what, max_input_bytes()?)
}

fn utf8(buf: Vec<u8>, what: &str) -> Result<String, String> {
    String::from_utf8(buf).map_err(|e| {
        format!(
            "{what} is not valid UTF-8 (byte {})",
            e.utf8_error().valid_up_to()
        )
    })
}

/// Reads standard input as UTF-8 text, refusing more than the limit. When stdin is a file
/// (`tailor < list.yaml`), the buffer is sized from its length, as [`read_file`] sizes one.
pub fn read_stdin() -> Result<String, String> {
    use std::os::fd::AsFd;
    let what = "input";
    let limit = max_input_bytes()?;
    let stdin = std::io::stdin();
    let size = stdin
        .as_fd()
        .try_clone_to_owned()
        .ok()
        .map(std::fs::File::from)
        .and_then(|f| f.metadata().ok())
        .filter(|m| m.is_file())
        .map_or(0, |m| m.len());
    let buf = read_into(buffer_for(size, what, limit)?, stdin.lock(), what, limit)?;
    utf8(buf, what)
}

/// Reads the file at `path` as UTF-8 text, refusing more than the limit.
pub fn read_file(path: &std::path::Path) -> Result<String, String> {
    let what = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| format!("{what}: {e}"))?;
    let limit = max_input_bytes()?;
    // Sized from the file's length: read through `take`, the buffer would otherwise grow by
    // doubling and keep up to half again the text as spare capacity, for as long as the text
    // is held (every file of a package, while the run lasts).
    let size = file.metadata().map_or(0, |m| m.len());
    let buf = read_into(buffer_for(size, &what, limit)?, file, &what, limit)?;
    utf8(buf, &what)
}

fn read_bytes_limited(reader: impl Read, what: &str, limit: u64) -> Result<Vec<u8>, String> {
    read_into(Vec::new(), reader, what, limit)
}

fn read_into(
    mut buf: Vec<u8>,
    reader: impl Read,
    what: &str,
    limit: u64,
) -> Result<Vec<u8>, String> {
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut buf)
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::OutOfMemory => out_of_memory(what, buf.len() as u64, limit),
            _ => format!("reading {what}: {e}"),
        })?;
    if buf.len() as u64 > limit {
        return Err(too_large(what, limit));
    }
    Ok(buf)
}

/// A buffer for an input of `size` bytes (its length when it is a file): refused at once when
/// it is over the limit, and an error rather than an abort when memory is short.
fn buffer_for(size: u64, what: &str, limit: u64) -> Result<Vec<u8>, String> {
    if size > limit {
        return Err(too_large(what, limit));
    }
    let mut buf = Vec::new();
    buf.try_reserve_exact(size as usize)
        .map_err(|_| out_of_memory(what, 0, limit))?;
    if size >= HUGE_PAGE_INPUT {
        advise_huge_pages(&mut buf);
    }
    Ok(buf)
}

/// A buffer this large is filled through 2 MiB pages where the system offers them. Filled 4
/// KiB at a time, the first touch of each page is a fault: 4,800 of them for a 20 MB
/// ResourceList, about 6% of a pass that changes nothing (issue 26, `benches/RESULTS.md`).
const HUGE_PAGE_INPUT: u64 = 4 << 20;

/// Asks the kernel to back `buf`'s spare capacity with transparent huge pages, as glibc's
/// `glibc.malloc.hugetlb=1` does for its own blocks. Only advice: where the system does not
/// offer them (THP `never`, another OS, a page size other than 4 KiB) nothing changes.
#[cfg(target_os = "linux")]
fn advise_huge_pages(buf: &mut Vec<u8>) {
    const PAGE: usize = 4096;
    let spare = buf.spare_capacity_mut();
    let start = (spare.as_mut_ptr() as usize).next_multiple_of(PAGE);
    let end = (spare.as_mut_ptr() as usize + spare.len()) / PAGE * PAGE;
    if end > start {
        // SAFETY: `start..end` lies inside memory this Vec owns (its spare capacity, whole
        // pages only), and MADV_HUGEPAGE changes how its pages are supplied, never what they
        // hold; the result is ignored, as advice may be refused.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_buf: &mut Vec<u8>) {}

fn too_large(what: &str, limit: u64) -> String {
    format!(
        "{what} is larger than {limit} bytes, the input size limit (set TAILOR_MAX_INPUT_BYTES to change it)"
    )
}

fn out_of_memory(what: &str, read: u64, limit: u64) -> String {
    format!(
        "{what}: out of memory after {read} bytes, below the input size limit of {limit} bytes (set TAILOR_MAX_INPUT_BYTES lower to be refused early)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_is_inclusive() {
        let text = b"kind: ResourceList\n";
        let n = text.len() as u64;
        assert_eq!(read_bytes_limited(&text[..], "input", n).unwrap(), text);
        let err = read_bytes_limited(&text[..], "input", n - 1).unwrap_err();
        assert_eq!(
            err,
            format!("input is larger than {} bytes, the input size limit (set TAILOR_MAX_INPUT_BYTES to change it)", n - 1)
        );
    }

    /// A file past the huge-page threshold reads back byte for byte (its buffer was advised).
    #[test]
    fn a_large_file_reads_whole() {
        let dir = std::env::temp_dir().join(format!("tailor-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("large.yaml");
        let line = "- apiVersion: v1\n  kind: ConfigMap\n";
        let text = line.repeat((HUGE_PAGE_INPUT as usize / line.len()) + 7);
        std::fs::write(&path, &text).unwrap();
        let read = read_file(&path);
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(read.unwrap() == text);
    }

    #[test]
    fn an_endless_reader_is_cut_off() {
        let endless = std::io::repeat(b'a');
        let err = read_bytes_limited(endless, "input", 1 << 20).unwrap_err();
        assert!(
            err.starts_with("input is larger than 1048576 bytes"),
            "{err}"
        );
    }
}
