import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One running testee: spawned with `posix_spawnp` in a process group of its own, so killing it
/// kills wrappers' children too (`sh -c`, `python3 -m`, `npx` leave grandchildren); stdout split
/// into lines by a reader thread; stderr drained into a bounded tail.
///
/// Foundation's `Process` cannot set the process group on Linux, hence the direct spawn.
public final class TesteeProcess: @unchecked Sendable {
    public let pid: pid_t
    public let command: [String]
    public let stderr: StderrTail
    private let stdinFD: Int32
    private let lines: LineReader
    private let lock = NSLock()
    private var status: ExitStatus?
    private var stdinClosed = false

    /// Makes a write to a dead testee an `EPIPE` instead of killing the runner. Idempotent.
    public static func ignoreSIGPIPE() {
        signal(SIGPIPE, SIG_IGN)
    }

    public init(command: [String], stderrCapacity: Int = 4096) throws(SpawnError) {
        guard !command.isEmpty else { throw SpawnError(command: command, reason: "empty command") }
        TesteeProcess.ignoreSIGPIPE()
        self.command = command
        var inPipe: [Int32] = [-1, -1], outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1]
        // Pipes are made and spawned under one lock, and marked close-on-exec, so a testee spawned
        // by another worker never inherits these ends (an inherited write end would hide EOF).
        ChildSpawn.lock.lock()
        defer { ChildSpawn.lock.unlock() }
        guard pipe(&inPipe) == 0, pipe(&outPipe) == 0, pipe(&errPipe) == 0 else {
            let reason = String(cString: strerror(errno))
            for fd in inPipe + outPipe + errPipe where fd >= 0 { close(fd) }
            throw SpawnError(command: command, reason: "pipe: \(reason)")
        }
        for fd in inPipe + outPipe + errPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let spawned = ChildSpawn.spawn(command, stdinFromDevNull: false, dups: [(inPipe[0], 0), (outPipe[1], 1), (errPipe[1], 2)])
        close(inPipe[0]); close(outPipe[1]); close(errPipe[1])
        let child: pid_t
        switch spawned {
        case .success(let p): child = p
        case .failure(let f):
            close(inPipe[1]); close(outPipe[0]); close(errPipe[0])
            throw SpawnError(command: command, reason: f.reason)
        }
        pid = child
        stdinFD = inPipe[1]
        // Non-blocking writes: a testee that stops reading must not freeze the runner past a deadline.
        _ = fcntl(stdinFD, F_SETFL, fcntl(stdinFD, F_GETFL) | O_NONBLOCK)
        stderr = StderrTail(capacity: stderrCapacity)
        StderrDrain.start(fd: errPipe[0], into: stderr)
        lines = LineReader(fd: outPipe[0], maxLineBytes: RunnerProtocol.maxLineBytes)
    }

    deinit {
        kill()
        _ = reap(grace: 0)
        closeStdin()
    }

    public enum WriteResult: Sendable, Equatable {
        case written
        /// The testee closed its stdin (or died): a crash.
        case closed
        case timedOut
    }

    /// Writes one line (a `\n` is appended) before `deadline`.
    public func send(_ line: String, deadline: Date) -> WriteResult {
        var bytes = Array(line.utf8)
        bytes.append(0x0a)
        return sendBytes(bytes, deadline: deadline)
    }

    /// Writes `bytes` as they are (the self-test's malformed lines) before `deadline`.
    public func sendBytes(_ bytes: [UInt8], deadline: Date) -> WriteResult {
        lock.lock()
        defer { lock.unlock() }
        guard !stdinClosed else { return .closed }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(stdinFD, $0.baseAddress! + offset, $0.count - offset) }
            if n > 0 { offset += n; continue }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                let ms = Int32(max(0, min(Double(Int32.max), deadline.timeIntervalSinceNow * 1000)))
                if ms == 0 { return .timedOut }
                var p = pollfd(fd: stdinFD, events: Int16(POLLOUT), revents: 0)
                _ = poll(&p, 1, ms)
                continue
            }
            return .closed
        }
        return .written
    }

    /// The next stdout event, or nil at the deadline.
    func nextLine(deadline: Date) -> LineReader.Event? { lines.next(deadline: deadline) }

    public func closeStdin() {
        lock.lock()
        defer { lock.unlock() }
        if !stdinClosed { close(stdinFD); stdinClosed = true }
    }

    /// SIGKILL to the whole process group (and the leader, in case it left the group).
    public func kill() {
        lock.lock()
        let alive = status == nil
        lock.unlock()
        guard alive else { return }
        _ = Glibc.kill(-pid, SIGKILL)
        _ = Glibc.kill(pid, SIGKILL)
    }

    /// Waits up to `grace` seconds for the process to exit by itself, then kills the group and
    /// collects the status. Never blocks longer than `grace` plus the kill.
    @discardableResult
    public func reap(grace: Double) -> ExitStatus {
        lock.lock()
        if let status { lock.unlock(); return status }
        lock.unlock()
        let until = Date(timeIntervalSinceNow: grace)
        var s: Int32 = 0
        while true {
            let r = waitpid(pid, &s, WNOHANG)
            if r == pid { return record(ExitStatus(waitStatus: s)) }
            if r < 0 && errno != EINTR { return record(.unknown) }
            if Date() >= until { break }
            usleep(2_000)
        }
        _ = Glibc.kill(-pid, SIGKILL)
        _ = Glibc.kill(pid, SIGKILL)
        while waitpid(pid, &s, 0) < 0 && errno == EINTR {}
        // Also kill what the leader left behind in its group.
        _ = Glibc.kill(-pid, SIGKILL)
        return record(ExitStatus(waitStatus: s))
    }

    /// The exit status if the process ends by itself within `timeout` seconds, else nil (it is
    /// left running).
    public func waitForExit(timeout: Double) -> ExitStatus? {
        lock.lock()
        if let status { lock.unlock(); return status }
        lock.unlock()
        let until = Date(timeIntervalSinceNow: timeout)
        var s: Int32 = 0
        while true {
            let r = waitpid(pid, &s, WNOHANG)
            if r == pid { return record(ExitStatus(waitStatus: s)) }
            if r < 0 && errno != EINTR { return record(.unknown) }
            if Date() >= until { return nil }
            usleep(2_000)
        }
    }

    private func record(_ s: ExitStatus) -> ExitStatus {
        lock.lock()
        defer { lock.unlock() }
        if status == nil { status = s }
        return status!
    }

    /// Polite end: `shutdown`, close stdin, wait up to `grace` for exit 0, then kill.
    @discardableResult
    public func shutdown(grace: Double) -> ExitStatus {
        _ = send(RunnerProtocol.shutdown.compact, deadline: Date(timeIntervalSinceNow: min(grace, 1)))
        closeStdin()
        let s = reap(grace: grace)
        _ = Glibc.kill(-pid, SIGKILL)
        return s
    }

    /// Waits (bounded) for the stderr drain to see EOF, so the tail holds the last words.
    public func settleStderr(timeout: Double = 1) { stderr.waitClosed(timeout: timeout) }
}
