import Foundation
import Vectors
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A service started by `conformance http … -- CMD` (SPEC.md §6.13): spawned in a process group of
/// its own with `PORT` (and `PIXIE_CONFORMANCE=1`) in its environment, stdout and stderr drained
/// into one bounded tail, ready once a connection to the port succeeds.
final class ServiceProcess: @unchecked Sendable {
    let pid: pid_t
    let port: UInt16
    let output: OutputTail
    private let lock = NSLock()
    private var status: ExitStatus?

    init(command: [String], port: UInt16) throws {
        guard !command.isEmpty else { throw SocketError("empty service command") }
        TesteeProcess.ignoreSIGPIPE()
        self.port = port
        var out: [Int32] = [-1, -1]
        ChildSpawn.lock.lock()
        defer { ChildSpawn.lock.unlock() }
        guard pipe(&out) == 0 else { throw SocketError("pipe: \(String(cString: strerror(errno)))") }
        for fd in out { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var env = ProcessInfo.processInfo.environment
        env["PORT"] = String(port)
        env["PIXIE_CONFORMANCE"] = "1"
        let spawned = ChildSpawn.spawn(command, stdinFromDevNull: true, dups: [(out[1], 1), (out[1], 2)], environment: env)
        close(out[1])
        let child: pid_t
        switch spawned {
        case .success(let p): child = p
        case .failure(let f):
            close(out[0])
            throw SocketError("cannot start \(command[0]): \(f.reason)")
        }
        pid = child
        output = OutputTail()
        OutputTail.drain(fd: out[0], into: output)
    }

    deinit { stop() }

    /// Nil while running; the exit status once it has ended.
    func exitStatus() -> ExitStatus? {
        lock.lock()
        defer { lock.unlock() }
        if let status { return status }
        var s: Int32 = 0
        let r = waitpid(pid, &s, WNOHANG)
        if r == pid { status = ExitStatus(waitStatus: s) }
        return status
    }

    /// Waits until the port accepts a connection; nil when ready, else why not.
    func waitReady(host: String, timeout: Double) -> String? {
        let until = Socket.deadline(after: timeout)
        while Socket.now() < until {
            if let s = exitStatus() { return "the service \(s) before accepting connections on port \(port)" }
            if case .success(let fd) = Socket.connect(host: host, port: port, deadline: Socket.deadline(after: 0.5)) {
                close(fd)
                return nil
            }
            usleep(25_000)
        }
        return "nothing accepted connections on port \(port) within \(WelchTest.format(timeout, 1)) s"
    }

    /// SIGTERM to the group, a short grace, then SIGKILL; reaps the leader.
    func stop() {
        guard exitStatus() == nil else { _ = kill(-pid, SIGKILL); return }
        _ = kill(-pid, SIGTERM)
        let until = Socket.deadline(after: 1)
        while Socket.now() < until, exitStatus() == nil { usleep(10_000) }
        _ = kill(-pid, SIGKILL)
        _ = kill(pid, SIGKILL)
        lock.lock()
        if status == nil {
            var s: Int32 = 0
            while waitpid(pid, &s, 0) < 0 && errno == EINTR {}
            status = ExitStatus(waitStatus: s)
        }
        lock.unlock()
    }
}

/// The last 4 KiB a service wrote (stdout and stderr together), attached to failures.
final class OutputTail: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    private var total: UInt64 = 0
    let capacity = 4096

    var mark: UInt64 { lock.withLock { total } }

    func append(_ chunk: ArraySlice<UInt8>) {
        lock.withLock {
            total += UInt64(chunk.count)
            bytes += chunk
            if bytes.count > capacity { bytes.removeFirst(bytes.count - capacity) }
        }
    }

    /// What was written since `mark` (at most the capacity), lossy UTF-8.
    func tail(since mark: UInt64) -> String {
        lock.withLock {
            let n = Int(min(UInt64(bytes.count), total &- mark))
            return String(decoding: bytes.suffix(n), as: UTF8.self)
        }
    }

    static func drain(fd: Int32, into tail: OutputTail) {
        Thread.detachNewThread {
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                tail.append(chunk[0..<n])
            }
            close(fd)
        }
    }
}
