//! Command-line entry: mode selection and exit codes.
pub fn run() -> i32 {
    0
}
