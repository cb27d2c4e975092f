//! Where a fan-out may write each destination's copies as soon as they are made, rather than
//! hold every copy until the end: the output then holds the input and a few destinations at
//! a time, whatever the number of destinations.

use crate::Resource;

/// Takes each destination's copies, in destination order, as the fan-out finishes them.
pub trait FanOutSink {
    /// Before any copy is made: `Ok(true)` to take the copies of `destinations` one by one
    /// (then the run's answer holds only `staying`, the objects written once), `Ok(false)` to
    /// have every copy in the answer as usual; an error fails the run, nothing tailored.
    fn begin(&mut self, destinations: &[&str], staying: &[&Resource]) -> Result<bool, String>;

    /// The copies for `destination`, each under its directory; an error fails the run. Once
    /// any destination has an error result, the others are made (their results reported) but
    /// not handed on: the run fails, and a sink must then leave no output.
    fn destination(&mut self, destination: &str, copies: Vec<Resource>) -> Result<(), String>;
}
