/// One HTTP/1.1 request as a service sees it once the bytes are parsed (SPEC.md §13): method,
/// request target, header fields in the order received (names compared case-insensitively, values
/// kept as bytes) and the whole body. The socket layer (`Conformance/HTTP`) builds these from the
/// wire; the scenario interpreter builds them from a case; the reference services answer them.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The request target as sent: the path, then `?` and the query when there is one.
    public var target: String
    public var headers: [HTTPField]
    public var body: [UInt8]

    public init(method: String, target: String, headers: [HTTPField] = [], body: [UInt8] = []) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
    }

    /// The path: the target up to the first `?` (SPEC [R13.2-3]: routes match on the path only).
    public var path: String {
        guard let q = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return target }
        return String(target[..<q])
    }

    /// Every value of the named field, in order (names are case-insensitive, RFC 9110 §5.1).
    public func values(_ name: String) -> [[UInt8]] {
        headers.filter { HTTPField.sameName($0.name, name) }.map(\.value)
    }
}

/// One HTTP answer: status, reason phrase, header fields and the whole body.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var reason: String
    public var headers: [HTTPField]
    public var body: [UInt8]

    public init(status: Int, reason: String? = nil, headers: [HTTPField] = [], body: [UInt8] = []) {
        self.status = status
        self.reason = reason ?? HTTPResponse.reasonPhrase(status)
        self.headers = headers
        self.body = body
    }

    public func values(_ name: String) -> [[UInt8]] {
        headers.filter { HTTPField.sameName($0.name, name) }.map(\.value)
    }

    /// A JSON answer: `Content-Type: application/json` and the compact JSON text (SPEC §2 escaping).
    public static func json(_ status: Int, _ value: JSONValue) -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPField("Content-Type", "application/json")], body: Array(value.compact.utf8))
    }

    /// An answer with no body at all (204, or a hook's acknowledgement).
    public static func empty(_ status: Int) -> HTTPResponse { HTTPResponse(status: status) }

    /// An error answer: `{"error": code, "message": text}` (the shape §13.2 gives the 409; the others follow it).
    public static func error(_ status: Int, _ code: String, _ message: String) -> HTTPResponse {
        json(status, .object([("error", .string(code)), ("message", .string(message))]))
    }

    public static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 201: return "Created"
        case 204: return "No Content"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 409: return "Conflict"
        case 413: return "Content Too Large"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 505: return "HTTP Version Not Supported"
        default: return "Status \(status)"
        }
    }
}

/// A header field: name as written, value as bytes (field values are octets, RFC 9110 §5.5).
public struct HTTPField: Sendable, Equatable {
    public var name: String
    public var value: [UInt8]

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = Array(value.utf8)
    }

    public init(name: String, value: [UInt8]) {
        self.name = name
        self.value = value
    }

    /// The value as text (UTF-8; invalid bytes replaced), for predicates and messages.
    public var text: String { String(decoding: value, as: UTF8.self) }

    /// ASCII case-insensitive comparison of field names.
    public static func sameName(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        for (p, q) in zip(x, y) where lower(p) != lower(q) { return false }
        return true
    }

    /// A field value without the spaces and tabs around it (RFC 9112 §5.1: they are not part of it).
    public static func trimmed(_ v: [UInt8]) -> [UInt8] {
        var lo = 0, hi = v.count
        while lo < hi, v[lo] == 0x20 || v[lo] == 0x09 { lo += 1 }
        while hi > lo, v[hi - 1] == 0x20 || v[hi - 1] == 0x09 { hi -= 1 }
        return Array(v[lo..<hi])
    }

    static func lower(_ c: UInt8) -> UInt8 { (0x41...0x5a).contains(c) ? c | 0x20 : c }
}

/// What every reference service answers through: one request in, one answer out. The socket
/// server and the in-process transport both call it; implementations are thread-safe (the race
/// step calls them from many threads at once).
public protocol HTTPService: AnyObject, Sendable {
    /// The service name for `serve-http` (`pairing`, `identity`).
    var name: String { get }
    func handle(_ request: HTTPRequest) -> HTTPResponse
}
