import Foundation

/// How a scenario reaches a service: over loopback sockets (`Conformance/HTTP`, the real thing)
/// or by calling a reference service in-process (generation, the vector self-check, the mutant
/// matrix). The interpreter judges the answers the same way for both.
public protocol ScenarioTransport: Sendable {
    /// One request on a connection of its own.
    func send(_ request: HTTPRequest) -> Result<HTTPResponse, TransportFailure>
    /// All requests at once: every connection open before any request is written (SPEC §6.13).
    func sendConcurrently(_ requests: [HTTPRequest]) -> [Result<HTTPResponse, TransportFailure>]
    /// One after another, each timed from its first byte written to its last byte read.
    func sendTimed(_ requests: [HTTPRequest]) -> [Result<TimedResponse, TransportFailure>]
    /// `bytes` written as they are on a connection of their own (a raw step, SPEC §13.1), then
    /// `answers` answers read from it, each as an answer to `method`; with `awaitClose`, whether
    /// the service then closed the connection without another byte.
    func sendRaw(_ bytes: [UInt8], answers: Int, method: String, awaitClose: Bool) -> Result<RawExchange, TransportFailure>
}

/// What a raw step got back: the answers in order, and whether the connection then ended.
public struct RawExchange: Sendable {
    public var responses: [HTTPResponse]
    /// True when the service closed the connection after the last answer with no byte after it
    /// (only asked when the step says `closes`).
    public var closed: Bool
    public init(responses: [HTTPResponse], closed: Bool) {
        self.responses = responses
        self.closed = closed
    }
}

public struct TimedResponse: Sendable {
    public var response: HTTPResponse
    public var nanos: UInt64
    public init(response: HTTPResponse, nanos: UInt64) {
        self.response = response
        self.nanos = nanos
    }
}

/// A request that got no usable answer. The kinds map to the runner's failure kinds (§6.13):
/// `closed` and `refused` → `crash`, `timeout` → `timeout`, `malformed` and `tooLarge` → `protocol_error`.
public struct TransportFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable {
        /// Nothing listens on the port.
        case refused
        /// The connection ended before a whole answer arrived.
        case closed
        /// No whole answer within the deadline.
        case timeout
        /// Bytes that are not an HTTP/1.1 answer (bad status line, header, chunk framing).
        case malformed
        /// A header section or body beyond the runner's caps, declared or streamed.
        case tooLarge
    }
    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "\(kind.rawValue): \(message)" }
}

/// Calls a service object directly; concurrency is real (one thread per request, released together).
public struct InProcessTransport: ScenarioTransport {
    public let service: any HTTPService

    public init(_ service: any HTTPService) { self.service = service }

    public func send(_ request: HTTPRequest) -> Result<HTTPResponse, TransportFailure> { .success(Self.call(service, request)) }

    /// The service's answer to the request as the reference server would exchange them: the
    /// request's field values without the spaces and tabs around them (RFC 9112 §5.1), and the
    /// answer without content where the server sends none (a 204, a 304, an answer to HEAD).
    static func call(_ service: any HTTPService, _ request: HTTPRequest) -> HTTPResponse {
        var r = request
        r.headers = request.headers.map { HTTPField(name: $0.name, value: HTTPField.trimmed($0.value)) }
        var answer = service.handle(r)
        if request.method == "HEAD" || answer.status == 204 || answer.status == 304 { answer.body = [] }
        return answer
    }

    public func sendConcurrently(_ requests: [HTTPRequest]) -> [Result<HTTPResponse, TransportFailure>] {
        let results = ResultSlots<HTTPResponse>(count: requests.count)
        let gate = StartGate(parties: requests.count)
        let done = DispatchGroup()
        let service = self.service
        for (i, r) in requests.enumerated() {
            done.enter()
            let t = Thread {
                gate.arriveAndWait()
                results.set(i, .success(Self.call(service, r)))
                done.leave()
            }
            t.start()
        }
        done.wait()
        return results.all
    }

    public func sendTimed(_ requests: [HTTPRequest]) -> [Result<TimedResponse, TransportFailure>] {
        requests.map { r in
            let t0 = DispatchTime.now().uptimeNanoseconds
            let answer = Self.call(service, r)
            return .success(TimedResponse(response: answer, nanos: DispatchTime.now().uptimeNanoseconds - t0))
        }
    }

    /// The bytes read by the reference server's own request reader (`HTTPRequestReader`), each
    /// request answered in order until a refusal or an answer after which the connection closes
    /// (the server then closes it), as the reference server does on a socket.
    public func sendRaw(_ bytes: [UInt8], answers: Int, method: String, awaitClose: Bool) -> Result<RawExchange, TransportFailure> {
        var responses: [HTTPResponse] = []
        var closed = false
        for outcome in HTTPRequestReader.read(bytes, limit: answers + 1) {
            switch outcome {
            case .request(let r, let close):
                responses.append(Self.call(service, r))
                closed = close
            case .refused(let answer):
                responses.append(answer)
                closed = true
            case .end:
                closed = true
            }
        }
        guard responses.count >= answers else {
            return .failure(TransportFailure(.closed, "the connection closed after \(responses.count) answer(s), \(answers) expected"))
        }
        // A further answer is bytes after the last expected one: the connection did not end there.
        return .success(RawExchange(responses: Array(responses.prefix(answers)), closed: closed && responses.count == answers))
    }
}

/// Releases all parties at once, so concurrent requests really overlap.
public final class StartGate: @unchecked Sendable {
    private let condition = NSCondition()
    private var waiting = 0
    private let parties: Int
    private var open = false

    public init(parties: Int) { self.parties = parties }

    public func arriveAndWait() {
        condition.lock()
        waiting += 1
        if waiting >= parties { open = true; condition.broadcast() }
        while !open { condition.wait() }
        condition.unlock()
    }
}

/// One result slot per request, filled from many threads.
public final class ResultSlots<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result<T, TransportFailure>?]

    public init(count: Int) { slots = Array(repeating: nil, count: count) }

    public func set(_ i: Int, _ r: Result<T, TransportFailure>) {
        lock.lock()
        slots[i] = r
        lock.unlock()
    }

    public var all: [Result<T, TransportFailure>] {
        lock.lock()
        defer { lock.unlock() }
        return slots.map { $0 ?? .failure(TransportFailure(.closed, "no answer recorded")) }
    }
}
