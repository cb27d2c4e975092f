//! How much memory this process can still take, from what Linux says of it: the memory
//! available on the machine, the cgroup's limit, and the address-space limit (`ulimit -v`),
//! whichever is least. Used to set limits the machine can hold by default; `None` where the
//! system says nothing.

/// The bytes this process may still allocate, as far as the system says.
pub fn available() -> Option<u64> {
    [
        machine_available(),
        cgroup_available(),
        address_space_available(),
    ]
    .into_iter()
    .flatten()
    .min()
}

/// `MemAvailable` of /proc/meminfo.
fn machine_available() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    kib_field(&text, "MemAvailable:")
}

/// cgroup v2: `memory.max` less `memory.current` of this process's cgroup.
fn cgroup_available() -> Option<u64> {
    let own = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let path = own.lines().find_map(|l| l.strip_prefix("0::"))?;
    let dir = std::path::Path::new("/sys/fs/cgroup").join(path.trim_start_matches('/'));
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).ok();
    let max: u64 = read("memory.max")?.trim().parse().ok()?;
    let current: u64 = read("memory.current")?.trim().parse().unwrap_or(0);
    Some(max.saturating_sub(current))
}

/// `ulimit -v` (the soft "Max address space" of /proc/self/limits) less the address space
/// already taken (`VmSize` of /proc/self/status).
fn address_space_available() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    let soft: u64 = line
        .trim_start_matches("Max address space")
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let used = kib_field(&status, "VmSize:").unwrap_or(0);
    Some(soft.saturating_sub(used))
}

/// The value of a `NAME:   1234 kB` line, in bytes.
fn kib_field(text: &str, name: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(name))?;
    let kib: u64 = line[name.len()..].split_whitespace().next()?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kib_fields_are_read_in_bytes() {
        let text = "MemTotal:       24684544 kB\nMemAvailable:    2048 kB\n";
        assert_eq!(kib_field(text, "MemAvailable:"), Some(2048 * 1024));
        assert_eq!(kib_field(text, "Missing:"), None);
    }

    #[test]
    fn a_linux_machine_says_how_much_is_available() {
        if std::path::Path::new("/proc/meminfo").exists() {
            assert!(available().is_some_and(|n| n > 0));
        }
    }
}
