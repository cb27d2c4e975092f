//! Work items made on several threads and handed on in their order, with a bounded number in
//! flight: what a fan-out that writes each destination as it is finished needs. Memory then
//! holds at most `window` finished-or-started items, however many there are; the order they are
//! handed on is `0, 1, 2, ...` whatever the number of threads, so the output is the same bytes.

use std::collections::BTreeMap;
use std::sync::{Condvar, Mutex, MutexGuard};

/// Why [`in_order`] stopped before handing on every item.
#[derive(Debug, PartialEq)]
pub enum Stopped<E> {
    /// The sink refused an item.
    Sink(E),
    /// A thread could not start, or ended without its item (its message).
    Thread(String),
}

/// Makes items `0..count` with workers made by `worker` (one per thread: a worker may hold
/// what it reuses from item to item), on `threads` threads, and hands each to `sink` in index
/// order on the calling thread. At most `window` items (at least one per thread) are started
/// and not yet handed on. A sink error stops the workers after the item each is making.
pub fn in_order<T, W, E>(
    count: usize,
    threads: usize,
    window: usize,
    worker: impl Fn() -> W + Sync,
    mut sink: impl FnMut(usize, T) -> Result<(), E>,
) -> Result<(), Stopped<E>>
where
    T: Send,
    W: FnMut(usize) -> T,
{
    let threads = threads.clamp(1, count.max(1));
    if threads == 1 {
        let mut work = worker();
        for i in 0..count {
            sink(i, work(i)).map_err(Stopped::Sink)?;
        }
        return Ok(());
    }
    let shared = Shared {
        state: Mutex::new(State {
            next: 0,
            handed: 0,
            done: BTreeMap::new(),
            stop: false,
            running: threads,
        }),
        changed: Condvar::new(),
        count,
        window: window.max(threads),
    };
    std::thread::scope(|scope| {
        let mut handles = Vec::with_capacity(threads);
        let mut result = Ok(());
        for _ in 0..threads {
            let spawned = std::thread::Builder::new().spawn_scoped(scope, || {
                let _exit = Exit(&shared);
                let mut work = worker();
                while let Some(i) = shared.take() {
                    let item = work(i);
                    shared.put(i, item);
                }
            });
            match spawned {
                Ok(handle) => handles.push(handle),
                Err(e) => {
                    // Never started: not running.
                    shared.lock().running -= 1;
                    result = Err(Stopped::Thread(format!(
                        "could not start a fan-out thread ({threads} asked): {e}; set TAILOR_THREADS lower"
                    )));
                    break;
                }
            }
        }
        if result.is_ok() {
            result = hand_on(&shared, &mut sink);
        }
        shared.stop();
        // Joined here, so a worker's panic is this error rather than the scope's panic.
        for handle in handles {
            if handle.join().is_err() && result.is_ok() {
                result = Err(Stopped::Thread("a fan-out thread panicked".into()));
            }
        }
        result
    })
}

/// Hands every item to `sink` in order as the workers finish them.
fn hand_on<T, E>(
    shared: &Shared<T>,
    sink: &mut impl FnMut(usize, T) -> Result<(), E>,
) -> Result<(), Stopped<E>> {
    for i in 0..shared.count {
        let Some(item) = shared.wait_for(i) else {
            return Err(Stopped::Thread(
                "a fan-out thread ended before its destination was finished".into(),
            ));
        };
        sink(i, item).map_err(Stopped::Sink)?;
        // Only now is the item out of memory: the window moves on.
        shared.lock().handed = i + 1;
        shared.changed.notify_all();
    }
    Ok(())
}

struct State<T> {
    /// The next index to start.
    next: usize,
    /// The next index to hand on.
    handed: usize,
    done: BTreeMap<usize, T>,
    stop: bool,
    running: usize,
}

struct Shared<T> {
    state: Mutex<State<T>>,
    changed: Condvar,
    count: usize,
    window: usize,
}

impl<T> Shared<T> {
    fn lock(&self) -> MutexGuard<'_, State<T>> {
        // A worker panicking while holding the lock leaves the state as consistent as before.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn wait<'a>(&self, guard: MutexGuard<'a, State<T>>) -> MutexGuard<'a, State<T>> {
        self.changed.wait(guard).unwrap_or_else(|p| p.into_inner())
    }

    /// The next index to make, once the window allows; `None` when there is none or the run
    /// stopped.
    fn take(&self) -> Option<usize> {
        let mut s = self.lock();
        loop {
            if s.stop || s.next >= self.count {
                return None;
            }
            if s.next < s.handed + self.window {
                s.next += 1;
                return Some(s.next - 1);
            }
            s = self.wait(s);
        }
    }

    fn put(&self, i: usize, item: T) {
        self.lock().done.insert(i, item);
        self.changed.notify_all();
    }

    /// Item `i`, once made; `None` when every worker ended without it.
    fn wait_for(&self, i: usize) -> Option<T> {
        let mut s = self.lock();
        loop {
            if let Some(item) = s.done.remove(&i) {
                return Some(item);
            }
            if s.running == 0 || s.stop {
                return None;
            }
            s = self.wait(s);
        }
    }

    fn stop(&self) {
        let mut s = self.lock();
        s.stop = true;
        s.done.clear();
        drop(s);
        self.changed.notify_all();
    }
}

/// Counts a worker out when it ends, panicking or not, so the hand-on never waits for it.
struct Exit<'a, T>(&'a Shared<T>);

impl<T> Drop for Exit<'_, T> {
    fn drop(&mut self) {
        let mut s = self.0.lock();
        s.running -= 1;
        // Its item will never come: the others stop rather than wait for the window to move.
        s.stop |= std::thread::panicking();
        drop(s);
        self.0.changed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn items_are_handed_on_in_order_whatever_the_threads() {
        for threads in [1, 2, 3, 8] {
            let mut seen = Vec::new();
            let r: Result<(), Stopped<()>> = in_order(
                50,
                threads,
                4,
                || {
                    |i: usize| {
                        // Later items finish first now and then.
                        std::thread::sleep(std::time::Duration::from_micros(
                            ((50 - i) % 7) as u64 * 50,
                        ));
                        i * 10
                    }
                },
                |i, v| {
                    seen.push((i, v));
                    Ok(())
                },
            );
            assert_eq!(r, Ok(()));
            assert_eq!(seen, (0..50).map(|i| (i, i * 10)).collect::<Vec<_>>());
        }
    }

    #[test]
    fn no_more_than_the_window_is_in_flight() {
        let in_flight = AtomicUsize::new(0);
        let most = AtomicUsize::new(0);
        let r: Result<(), Stopped<()>> = in_order(
            200,
            3,
            6,
            || {
                |_| {
                    let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(now, Ordering::SeqCst);
                }
            },
            |_, ()| {
                in_flight.fetch_sub(1, Ordering::SeqCst);
                Ok(())
            },
        );
        assert_eq!(r, Ok(()));
        assert!(most.load(Ordering::SeqCst) <= 6, "{most:?}");
    }

    #[test]
    fn a_sink_error_stops_the_run() {
        let made = AtomicUsize::new(0);
        let r = in_order(
            10_000,
            2,
            4,
            || {
                |i| {
                    made.fetch_add(1, Ordering::SeqCst);
                    i
                }
            },
            |i, _| if i == 3 { Err("full") } else { Ok(()) },
        );
        assert_eq!(r, Err(Stopped::Sink("full")));
        assert!(made.load(Ordering::SeqCst) < 20);
    }

    #[test]
    fn a_worker_that_panics_ends_the_run_with_an_error_not_a_hang() {
        let r: Result<(), Stopped<()>> = in_order(
            10,
            2,
            4,
            || {
                |i: usize| {
                    if i == 5 {
                        panic!("boom");
                    }
                    i
                }
            },
            |_, _| Ok(()),
        );
        assert!(matches!(r, Err(Stopped::Thread(_))), "{r:?}");
    }
}
