//! Where a fan-out may write each destination's copies as soon as they are made, rather than
//! hold every copy until the end: the output then holds the input and a few destinations at
//! a time, whatever the number of destinations.

use crate::Resource;

/// What a sink has done to each destination's copies on the thread that made them, before
/// they are handed on in destination order ([`FanOutSink::on_worker`]).
pub type Prepare = Box<dyn Fn(Vec<Resource>) -> Vec<Resource> + Send + Sync>;

/// Takes each destination's copies, in destination order, as the fan-out finishes them.
pub trait FanOutSink {
    /// Before any copy is made: `Ok(true)` to take the copies of `destinations` one by one
    /// (then the run's answer holds only `staying`, the objects written once), `Ok(false)` to
    /// have every copy in the answer as usual; an error fails the run, nothing tailored.
    fn begin(&mut self, destinations: &[&str], staying: &[&Resource]) -> Result<bool, String>;

    /// Work on each destination's copies that need not wait for their turn: the fan-out
    /// applies it on the thread that made them, off the one thread that hands them on in
    /// order (a held answer renders its copies to text there, and their trees are freed
    /// where they were made). Asked once, after [`FanOutSink::begin`] took the copies; the
    /// caller then applies it to every destination's copies before
    /// [`FanOutSink::destination`].
    fn on_worker(&mut self) -> Option<Prepare> {
        None
    }

    /// The copies for `destination`, each under its directory; an error fails the run. Once
    /// any destination has an error result, the others are made (their results reported) but
    /// not handed on: the run fails, and a sink must then leave no output.
    fn destination(&mut self, destination: &str, copies: Vec<Resource>) -> Result<(), String>;
}
