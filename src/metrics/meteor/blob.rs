//! Binary caches of METEOR resources: a magic tag (format and version), a checksum, a section table
//! and 8-byte aligned sections of little-endian data, memory-mapped read-only when read back. The
//! checksum covers everything after it, so a file corrupted anywhere (not only in its header) is
//! refused and rebuilt instead of being read as tables whose indices point anywhere.

use std::io::Write;
use std::path::Path;

/// Read-only bytes, owned or mapped from a file; never moved once made, so section slices stay valid.
pub struct Blob {
    ptr: *const u8,
    len: usize,
    _owner: Owner,
}

enum Owner {
    /// `u64` storage keeps sections 8-byte aligned.
    Heap(#[allow(dead_code)] Vec<u64>),
    #[cfg(unix)]
    Mapped,
}

// SAFETY: the bytes are never written after construction (heap) or mapped read-only (file).
unsafe impl Send for Blob {}
unsafe impl Sync for Blob {}

impl Drop for Blob {
    fn drop(&mut self) {
        #[cfg(unix)]
        if let Owner::Mapped = self._owner {
            // SAFETY: ptr/len are exactly the mapping made in `open`.
            unsafe {
                libc::munmap(self.ptr as *mut libc::c_void, self.len);
            }
        }
    }
}

const HEADER_ALIGN: usize = 8;

fn align_up(n: usize) -> usize {
    n.div_ceil(HEADER_ALIGN) * HEADER_ALIGN
}

/// Bytes before the checksummed part: magic, section count, checksum.
const CHECKSUMMED_FROM: usize = 16 + 8 + 8;

/// FxHash-style 64-bit checksum of `bytes` (a length multiple of 8: the layout pads to 8).
fn checksum(bytes: &[u8]) -> u64 {
    bytes.chunks(8).fold(bytes.len() as u64, |hash, chunk| {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        (hash.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(0x517c_c1b7_2722_0a95)
    })
}

/// Lay out `sections` behind `magic`, a checksum and a table of (offset, length) pairs.
pub fn encode(magic: &[u8; 16], sections: &[&[u8]]) -> Vec<u8> {
    let header = CHECKSUMMED_FROM + 16 * sections.len();
    let mut offsets = Vec::with_capacity(sections.len());
    let mut end = align_up(header);
    for section in sections {
        offsets.push(end);
        end = align_up(end + section.len());
    }
    let mut out = Vec::with_capacity(end);
    out.extend_from_slice(magic);
    out.extend_from_slice(&(sections.len() as u64).to_le_bytes());
    out.extend_from_slice(&0u64.to_le_bytes());
    for (section, offset) in sections.iter().zip(&offsets) {
        out.extend_from_slice(&(*offset as u64).to_le_bytes());
        out.extend_from_slice(&(section.len() as u64).to_le_bytes());
    }
    for (section, offset) in sections.iter().zip(&offsets) {
        out.resize(*offset, 0);
        out.extend_from_slice(section);
    }
    out.resize(end, 0);
    let sum = checksum(&out[CHECKSUMMED_FROM..]);
    out[24..32].copy_from_slice(&sum.to_le_bytes());
    out
}

/// The little-endian bytes of a `u32` array.
pub fn u32_bytes(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// Write `bytes` to `path` atomically (temporary file, then rename), so a reader never maps a
/// half-written file and a mapped file is never truncated under a reader.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    // Unique per process and call: two processes (or threads) building the cache at once each
    // write their own file, and the last rename wins with a complete file.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let temp = path.with_extension(format!("tmp{}-{call}", std::process::id()));
    let result = (|| {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(bytes)?;
        file.flush()?;
        drop(file);
        std::fs::rename(&temp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result
}

impl Blob {
    /// Own a copy of `bytes` (8-byte aligned).
    pub fn from_bytes(bytes: &[u8]) -> Blob {
        let mut words = vec![0u64; bytes.len().div_ceil(8)];
        // SAFETY: the byte view covers the first `bytes.len()` bytes of `words`' allocation.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), words.as_mut_ptr() as *mut u8, bytes.len()) };
        Blob { ptr: words.as_ptr() as *const u8, len: bytes.len(), _owner: Owner::Heap(words) }
    }

    /// Map a file read-only (read it into memory where mapping is not available).
    pub fn open(path: &Path) -> std::io::Result<Blob> {
        let file = std::fs::File::open(path)?;
        let len = file.metadata()?.len() as usize;
        #[cfg(unix)]
        if len > 0 {
            use std::os::fd::AsRawFd;
            // SAFETY: a fresh private read-only mapping of the whole file; checked for failure.
            let ptr = unsafe {
                libc::mmap(std::ptr::null_mut(), len, libc::PROT_READ, libc::MAP_PRIVATE, file.as_raw_fd(), 0)
            };
            if ptr == libc::MAP_FAILED {
                return Err(std::io::Error::last_os_error());
            }
            return Ok(Blob { ptr: ptr as *const u8, len, _owner: Owner::Mapped });
        }
        let bytes = std::fs::read(path)?;
        Ok(Blob::from_bytes(&bytes))
    }

    pub fn bytes(&self) -> &[u8] {
        if self.len == 0 {
            return &[];
        }
        // SAFETY: ptr/len describe memory owned by (or mapped for) this blob.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }

    /// The (offset, length) of each section when the blob starts with `magic` and holds
    /// `count` sections that lie inside it and start 8-byte aligned; None otherwise.
    pub fn sections(&self, magic: &[u8; 16], count: usize) -> Option<Vec<Section>> {
        let bytes = self.bytes();
        let header = CHECKSUMMED_FROM + 16 * count;
        if bytes.len() < header || &bytes[..16] != magic {
            return None;
        }
        let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize;
        if word(16) != count || word(24) as u64 != checksum(&bytes[CHECKSUMMED_FROM..]) {
            return None;
        }
        (0..count)
            .map(|k| {
                let (offset, len) = (word(CHECKSUMMED_FROM + 16 * k), word(CHECKSUMMED_FROM + 8 + 16 * k));
                let inside = offset >= header && offset % HEADER_ALIGN == 0 && offset.checked_add(len)? <= bytes.len();
                inside.then_some(Section { offset, len })
            })
            .collect()
    }

    /// A section as bytes.
    pub fn section_bytes(&self, section: Section) -> &[u8] {
        &self.bytes()[section.offset..section.offset + section.len]
    }

    /// A section as `u32`s (its length must be a multiple of 4).
    pub fn section_u32s(&self, section: Section) -> Option<&[u32]> {
        let bytes = self.section_bytes(section);
        if !bytes.len().is_multiple_of(4) || !cfg!(target_endian = "little") {
            return None;
        }
        // SAFETY: sections start 8-byte aligned within 8-byte aligned storage, every bit pattern
        // is a valid u32, and the data is little-endian like the host.
        Some(unsafe { std::slice::from_raw_parts(bytes.as_ptr() as *const u32, bytes.len() / 4) })
    }
}

/// A slice of a blob kept without its lifetime, by a struct that owns the blob (which never moves).
#[derive(Clone, Copy)]
pub struct Raw<T> {
    ptr: *const T,
    pub len: usize,
}

impl<T> Raw<T> {
    pub fn of(slice: &[T]) -> Raw<T> {
        Raw { ptr: slice.as_ptr(), len: slice.len() }
    }

    /// # Safety
    /// The blob the slice came from must still be alive.
    pub unsafe fn get<'a>(self) -> &'a [T] {
        std::slice::from_raw_parts(self.ptr, self.len)
    }
}

/// Where a section lies in its blob.
#[derive(Debug, Clone, Copy)]
pub struct Section {
    pub offset: usize,
    pub len: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_round_trip_through_a_file() {
        let magic = b"NLGM-TEST-BLOB01";
        let words = u32_bytes(&[1, 2, 3]);
        let bytes = encode(magic, &[b"abc", &words]);
        let path = std::env::temp_dir().join(format!("nlgm-blob-test-{}", std::process::id()));
        write_atomic(&path, &bytes).unwrap();
        let blob = Blob::open(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        let sections = blob.sections(magic, 2).unwrap();
        assert_eq!(blob.section_bytes(sections[0]), b"abc");
        assert_eq!(blob.section_u32s(sections[1]).unwrap(), &[1, 2, 3]);
        assert!(blob.sections(b"NLGM-TEST-BLOB02", 2).is_none());
        assert!(Blob::from_bytes(&bytes[..30]).sections(magic, 2).is_none());
    }
}
