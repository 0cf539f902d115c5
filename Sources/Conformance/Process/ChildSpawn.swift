import Foundation

/// `posix_spawnp` with the discipline every child of the runner gets, testee or HTTP service: a
/// process group of its own (so stopping it reaches the children it starts), SIGPIPE back to its
/// default (the runner ignores it), and an empty signal mask.
///
/// Callers make their pipes and spawn while holding `lock`, and mark every end close-on-exec:
/// a child spawned by another worker in between would otherwise inherit a write end and hide EOF.
enum ChildSpawn {
    static let lock = NSLock()

    /// The child's pid, or why `posix_spawnp` failed (its `errno` value, as text).
    static func spawn(_ command: [String], stdinFromDevNull: Bool, dups: [(from: Int32, to: Int32)],
                      environment: [String: String]? = nil) -> Result<pid_t, Failure> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if stdinFromDevNull { posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0) }
        for d in dups { posix_spawn_file_actions_adddup2(&actions, d.from, d.to) }
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        posix_spawnattr_setpgroup(&attr, 0)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attr, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attr, &mask)

        let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?]? = environment.map { env in env.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { for p in argv + (envp ?? []) { free(p) } }
        var child: pid_t = 0
        let rc = envp.map { posix_spawnp(&child, command[0], &actions, &attr, argv, $0) }
            ?? posix_spawnp(&child, command[0], &actions, &attr, argv, environ)
        return rc == 0 ? .success(child) : .failure(Failure(reason: String(cString: strerror(rc))))
    }

    struct Failure: Error {
        let reason: String
    }
}
