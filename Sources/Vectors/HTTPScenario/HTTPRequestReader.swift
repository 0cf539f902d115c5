/// How the reference server reads one request off a connection (RFC 9112 with SPEC.md §6.13's
/// caps), apart from the socket so that the bytes a hostile client sends can be fuzzed without
/// one (issue 27's `http_request` target) and the server and the fuzz target run the same code.
public enum HTTPRequestReader {
    public enum Outcome: Sendable {
        /// A whole request, and whether the connection closes after its answer.
        case request(HTTPRequest, close: Bool)
        /// The bytes are not an acceptable request: send this answer, then close.
        case refused(HTTPResponse)
        /// The connection ended (or timed out) with nothing worth an answer.
        case end
    }

    /// The statuses a refusal may carry: 400 (malformed), 413 (body above the cap), 431 (header
    /// section above the cap), 501 (a transfer coding other than chunked), 505 (not HTTP/1.x).
    public static let refusalStatuses: Set<Int> = [400, 413, 431, 501, 505]

    package static func next(_ reader: HTTPByteReader, deadline: UInt64) -> Outcome {
        let head: HTTPWire.Head
        switch HTTPWire.readHead(reader, deadline: deadline, what: "request") {
        case .failure(let f):
            if f.kind == .tooLarge { return .refused(.error(431, "header_too_large", f.message)) }
            if f.kind == .malformed { return .refused(.error(400, "bad_request", f.message)) }
            return .end
        case .success(let h): head = h
        }
        let parts = head.startLine.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(HTTPWire.isTokenChar), !parts[1].isEmpty else {
            return .refused(.error(400, "bad_request", "not a request line: \(HTTPWire.show(head.startLine))"))
        }
        // RFC 9112 §3.2: a request-target has no control characters; one with NUL or DEL (which the
        // runner's own client refuses to send) would reach the services' routing (found by the
        // http_request fuzz target: `GET /v1/sync/self-status/…\u{7F}\0…` was routed).
        guard !parts[1].contains(where: { $0 < 0x21 || $0 == 0x7f }) else {
            return .refused(.error(400, "bad_request", "a request target with control characters: \(HTTPWire.show(Array(parts[1])))"))
        }
        let version = String(decoding: parts[2], as: UTF8.self)
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            return .refused(.error(505, "http_version", "HTTP/1.1 only"))
        }
        // SPEC [R13.1-11], in its order: the framing faults a service refuses, each then closing
        // the connection (what follows can no longer be framed). HTTP/1.0 has no transfer coding
        // (RFC 9112 §6.1: the framing is faulty even with a Content-Length); both fields at once
        // is the request-smuggling shape, refused rather than read by one of them (`framing`);
        // a final coding other than chunked leaves the length unknown (400, `framing`); chunked
        // after another coding is a coding the services do not decode (501).
        let te = head.values("Transfer-Encoding")
        if !te.isEmpty {
            if version == "HTTP/1.0" {
                return .refused(.error(400, "bad_request", "an HTTP/1.0 request with Transfer-Encoding"))
            }
            let codings = HTTPWire.codings(te)
            if head.values("Content-Length").isEmpty, codings.last == "chunked", codings.count > 1 {
                return .refused(.error(501, "not_implemented", "the only transfer coding read is chunked, got \(codings.joined(separator: ", "))"))
            }
        }
        let body: [UInt8]
        switch HTTPWire.framing(head, isResponse: false) {
        case .failure(let f):
            return .refused(f.kind == .tooLarge ? .error(413, "body_too_large", f.message) : .error(400, "bad_request", f.message))
        case .success(let framing):
            switch HTTPWire.readBody(reader, framing, deadline: deadline) {
            case .failure(let f):
                if f.kind == .tooLarge { return .refused(.error(413, "body_too_large", f.message)) }
                if f.kind == .malformed { return .refused(.error(400, "bad_request", f.message)) }
                return .end
            case .success(let b): body = b
            }
        }
        let request = HTTPRequest(method: String(decoding: parts[0], as: UTF8.self), target: String(decoding: parts[1], as: UTF8.self),
                                  headers: head.fields, body: body)
        let connection = head.values("Connection").map { String(decoding: $0, as: UTF8.self).lowercased() }
        let close = version == "HTTP/1.0" ? !connection.contains { $0.contains("keep-alive") } : connection.contains { $0.contains("close") }
        return .request(request, close: close)
    }

    /// Every request in bytes a client sent before closing, in order, up to the first refusal or
    /// the end (a closed connection mid-request is `.end`).
    public static func read(_ bytes: [UInt8], limit: Int = 64) -> [Outcome] {
        let reader = HTTPByteReader(bytes: bytes)
        var out: [Outcome] = []
        while out.count < limit, reader.buffered > 0 {
            let o = next(reader, deadline: 0)  // every byte is here: no wait
            out.append(o)
            guard case .request(_, let close) = o, !close else { break }
        }
        return out
    }
}
