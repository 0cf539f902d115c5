#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a testee process ended, as `waitpid` reports it.
public enum ExitStatus: Sendable, Equatable, CustomStringConvertible {
    case exited(Int32)
    case signaled(Int32)
    /// Still running when the runner gave up waiting (it was then killed).
    case unknown

    init(waitStatus s: Int32) {
        // WIFEXITED / WTERMSIG are macros Swift does not import.
        let sig = s & 0x7f
        if sig == 0 { self = .exited((s >> 8) & 0xff) } else { self = .signaled(sig) }
    }

    public var description: String {
        switch self {
        case .exited(let c): return "exited with status \(c)"
        case .signaled(let s): return "killed by signal \(s) (\(ExitStatus.signalName(s)))"
        case .unknown: return "exit status unknown"
        }
    }

    static func signalName(_ s: Int32) -> String {
        switch s {
        case SIGHUP: return "SIGHUP"
        case SIGINT: return "SIGINT"
        case SIGQUIT: return "SIGQUIT"
        case SIGILL: return "SIGILL"
        case SIGTRAP: return "SIGTRAP"
        case SIGABRT: return "SIGABRT"
        case SIGBUS: return "SIGBUS"
        case SIGFPE: return "SIGFPE"
        case SIGKILL: return "SIGKILL"
        case SIGSEGV: return "SIGSEGV"
        case SIGPIPE: return "SIGPIPE"
        case SIGTERM: return "SIGTERM"
        default: return "signal \(s)"
        }
    }
}
