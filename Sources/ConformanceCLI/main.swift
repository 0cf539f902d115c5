import Foundation

/// Entry point: parse the subcommand, run it, exit with its code. Printing only; the work lives
/// in the library targets.
let arguments = Array(CommandLine.arguments.dropFirst())
let code = CLI.main(arguments)
exit(code)
