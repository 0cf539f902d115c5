import Foundation
import Vectors
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The runner's HTTP/1.1 client: one connection, requests one after another on it, every answer
/// read within a deadline and the caps of `HTTPWire`. Any way an answer can go wrong (refused,
/// closed early, hung, not HTTP, too large) comes back as a `TransportFailure`, never a trap.
public final class HTTPConnection {
    public let host: String
    public let port: UInt16
    private var fd: Int32 = -1
    private var reader: SocketReader?
    /// False once the service said `Connection: close`, or the framing needed the close.
    private(set) var reusable = false

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    deinit { close() }

    public var isOpen: Bool { fd >= 0 }

    public func open(deadline: UInt64) -> TransportFailure? {
        close()
        switch Socket.connect(host: host, port: port, deadline: deadline) {
        case .failure(let f): return f
        case .success(let s):
            fd = s
            reader = SocketReader(fd: s)
            reusable = true
            return nil
        }
    }

    public func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
        reader = nil
        reusable = false
    }

    /// Writes the request (opening the connection first if needed) and reads one answer.
    /// `close: true` asks the service to close after answering.
    public func send(_ request: HTTPRequest, deadline: UInt64, close wantClose: Bool = true) -> Result<HTTPResponse, TransportFailure> {
        if !isOpen || !reusable, let f = open(deadline: deadline) { return .failure(f) }
        let bytes: [UInt8]
        switch HTTPWire.serialize(request, close: wantClose) {
        case .failure(let f): return .failure(f)
        case .success(let b): bytes = b
        }
        if let f = Socket.writeAll(fd, bytes, deadline: deadline) {
            close()
            return .failure(f)
        }
        let result = readResponse(method: request.method, deadline: deadline, closeRequested: wantClose)
        if case .failure = result { close() } else if wantClose || !reusable { close() }
        return result
    }

    /// Writes a request without reading (the race writes all requests, then reads all answers).
    func write(_ request: HTTPRequest, deadline: UInt64) -> TransportFailure? {
        guard isOpen else { return TransportFailure(.closed, "not connected") }
        switch HTTPWire.serialize(request, close: true) {
        case .failure(let f): return f
        case .success(let b): return Socket.writeAll(fd, b, deadline: deadline)
        }
    }

    /// Writes bytes as they are, without reading (a raw step).
    func writeRaw(_ bytes: [UInt8], deadline: UInt64) -> TransportFailure? {
        guard isOpen else { return TransportFailure(.closed, "not connected") }
        return Socket.writeAll(fd, bytes, deadline: deadline)
    }

    /// True when the service closes the connection before the deadline with no byte more; false
    /// when a byte arrives or the deadline passes first.
    func awaitClose(deadline: UInt64) -> Bool {
        guard let r = reader else { return true }
        if r.buffered > 0 { return false }
        switch r.fill(deadline: deadline) {
        case .eof: return r.buffered == 0
        case .data, .timeout, .error: return false
        }
    }

    /// How long the client waits, after the header section of an answer that has no body, for
    /// stray bytes a service sends anyway before it closes the connection (SPEC §6.13).
    static let strayQuietNanos: UInt64 = 100_000_000

    func readResponse(method: String, deadline: UInt64, closeRequested: Bool = true) -> Result<HTTPResponse, TransportFailure> {
        guard let r = reader else { return .failure(TransportFailure(.closed, "not connected")) }
        while true {
            let head: HTTPWire.Head
            switch HTTPWire.readHead(r, deadline: deadline, what: "status") {
            case .failure(let f):
                if f.kind == .closed && r.buffered == 0 && !f.message.contains("byte(s) of it") {
                    return .failure(TransportFailure(.closed, "the connection closed before any answer"))
                }
                return .failure(f)
            case .success(let h): head = h
            }
            guard let (status, reason) = parseStatusLine(head.startLine) else {
                return .failure(TransportFailure(.malformed, "not an HTTP/1.1 status line: \(HTTPWire.show(head.startLine))"))
            }
            let framing: HTTPWire.Framing
            switch HTTPWire.framing(head, isResponse: true, status: status, requestMethod: method) {
            case .failure(let f): return .failure(f)
            case .success(let fr): framing = fr
            }
            var body: [UInt8]
            switch HTTPWire.readBody(r, framing, deadline: deadline) {
            case .failure(let f): return .failure(f)
            case .success(let b): body = b
            }
            // 1xx answers are interim: the final one follows (RFC 9110 §15.2).
            if (100..<200).contains(status) && status != 101 { continue }
            // A 204, a 304 and an answer to HEAD end with their header section (RFC 9112 §6.3).
            // Whatever the service sends after it is kept as the body, so the judge sees the bytes
            // on the wire, which a kept-alive client would take for the start of the next answer.
            if case .none = framing, status != 101 {
                body = r.drainStray(quiet: closeRequested ? Self.strayQuietNanos : 0, cap: HTTPWire.maxBodyBytes, deadline: deadline)
                if !body.isEmpty { reusable = false }
            }
            if case .untilClose = framing { reusable = false }
            if head.values("Connection").contains(where: { String(decoding: $0, as: UTF8.self).lowercased().contains("close") }) { reusable = false }
            return .success(HTTPResponse(status: status, reason: reason, headers: head.fields, body: body))
        }
    }

    /// Reads one answer from bytes a service wrote (then closed): the runner's own response
    /// reading without a socket (the `http_request` fuzz target reads back what the reference
    /// services write).
    static func readResponse(from bytes: [UInt8], method: String) -> Result<HTTPResponse, TransportFailure> {
        let c = HTTPConnection(host: "", port: 0)
        c.reader = SocketReader(bytes: bytes)
        return c.readResponse(method: method, deadline: Socket.deadline(after: 1), closeRequested: false)
    }

    /// `HTTP/1.1 200 OK` (or HTTP/1.0): a three-digit status and an optional reason.
    func parseStatusLine(_ line: [UInt8]) -> (Int, String)? {
        let text = String(decoding: line, as: UTF8.self)
        let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0] == "HTTP/1.1" || parts[0] == "HTTP/1.0",
              parts[1].count == 3, parts[1].utf8.allSatisfy({ (0x30...0x39).contains($0) }), let status = Int(parts[1]), status >= 100 else { return nil }
        return (status, parts.count > 2 ? String(parts[2]) : "")
    }
}

/// The scenario transport over loopback sockets (SPEC.md §6.13).
public struct SocketTransport: ScenarioTransport {
    public let host: String
    public let port: UInt16
    /// Seconds one request may take, from connect to the last byte of the answer.
    public let requestTimeout: Double

    public init(host: String, port: UInt16, requestTimeout: Double) {
        self.host = host
        self.port = port
        self.requestTimeout = requestTimeout
    }

    public func send(_ request: HTTPRequest) -> Result<HTTPResponse, TransportFailure> {
        HTTPConnection(host: host, port: port).send(request, deadline: Socket.deadline(after: requestTimeout))
    }

    /// Every connection is opened first; then all requests are written at once (released by one
    /// gate), then every answer read, each on its own thread.
    public func sendConcurrently(_ requests: [HTTPRequest]) -> [Result<HTTPResponse, TransportFailure>] {
        let deadline = Socket.deadline(after: requestTimeout)
        let connections = requests.map { _ in HTTPConnection(host: host, port: port) }
        for c in connections {
            if let f = c.open(deadline: deadline) { return requests.map { _ in .failure(f) } }
        }
        let slots = ResultSlots<HTTPResponse>(count: requests.count)
        let gate = StartGate(parties: requests.count)
        let group = DispatchGroup()
        let box = ConnectionBox(connections)
        for (i, r) in requests.enumerated() {
            group.enter()
            Thread {
                let c = box.connections[i]
                gate.arriveAndWait()
                if let f = c.write(r, deadline: deadline) {
                    slots.set(i, .failure(f))
                } else {
                    slots.set(i, c.readResponse(method: r.method, deadline: deadline))
                }
                c.close()
                group.leave()
            }.start()
        }
        group.wait()
        return slots.all
    }

    /// A connection of its own; the bytes written as they are, this side left open (a service
    /// must close by itself where SPEC says so); then the answers read one after another.
    public func sendRaw(_ bytes: [UInt8], answers: Int, method: String, awaitClose: Bool) -> Result<RawExchange, TransportFailure> {
        let deadline = Socket.deadline(after: requestTimeout)
        let c = HTTPConnection(host: host, port: port)
        if let f = c.open(deadline: deadline) { return .failure(f) }
        defer { c.close() }
        if let f = c.writeRaw(bytes, deadline: deadline) { return .failure(f) }
        var responses: [HTTPResponse] = []
        for i in 0..<answers {
            switch c.readResponse(method: method, deadline: deadline, closeRequested: false) {
            case .failure(let f): return .failure(TransportFailure(f.kind, "answer \(i + 1) of \(answers): \(f.message)"))
            case .success(let r): responses.append(r)
            }
        }
        return .success(RawExchange(responses: responses, closed: awaitClose && c.awaitClose(deadline: deadline)))
    }

    /// One keep-alive connection for the whole series (reopened if the service closes it), so the
    /// times measure the service, not connection setup.
    public func sendTimed(_ requests: [HTTPRequest]) -> [Result<TimedResponse, TransportFailure>] {
        let c = HTTPConnection(host: host, port: port)
        var out: [Result<TimedResponse, TransportFailure>] = []
        out.reserveCapacity(requests.count)
        for r in requests {
            let deadline = Socket.deadline(after: requestTimeout)
            if !c.isOpen || !c.reusable, let f = c.open(deadline: deadline) {
                out.append(.failure(f))
                return out
            }
            let t0 = Socket.now()
            let result = c.send(r, deadline: deadline, close: false)
            let t = Socket.now() - t0
            switch result {
            case .failure(let f):
                out.append(.failure(f))
                return out
            case .success(let answer):
                out.append(.success(TimedResponse(response: answer, nanos: t)))
            }
        }
        c.close()
        return out
    }
}

/// Hands connections to the threads that own them.
final class ConnectionBox: @unchecked Sendable {
    let connections: [HTTPConnection]
    init(_ c: [HTTPConnection]) { connections = c }
}
