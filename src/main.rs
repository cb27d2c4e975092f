fn main() {
    std::process::exit(tailor::cli::run());
}
