import Conformance
import Testing
import Vectors

/// The reference server's request reading over bytes (issue 27): the findings of the
/// `http_request` fuzz target, and the leniencies next to them, each with the answer it must get.
struct HTTPRequestReaderTests {
    static func first(_ text: String) -> HTTPRequestReader.Outcome? { HTTPRequestReader.read(Array(text.utf8)).first }
    static func first(_ bytes: [UInt8]) -> HTTPRequestReader.Outcome? { HTTPRequestReader.read(bytes).first }

    static func refusal(_ o: HTTPRequestReader.Outcome?) -> Int? {
        if case .refused(let r)? = o { return r.status }
        return nil
    }

    @Test func aTargetWithControlCharactersIs400() {
        // The fuzz target's input: DEL and NUL inside the path of a self-status lookup.
        let bytes = Array("GET /v1/sync/self-status/71a8".utf8) + [0x7f, 0x00, 0x00] + Array("945d HTTP/1.1\r\n\r\n".utf8)
        #expect(Self.refusal(Self.first(bytes)) == 400)
        #expect(Self.refusal(Self.first(Array("GET /a".utf8) + [0x09] + Array("b HTTP/1.1\r\n\r\n".utf8))) == 400)
        guard case .request(let r, _)? = Self.first("GET /v1/sync/self-status/71a8?x=%00 HTTP/1.1\r\n\r\n") else { Issue.record("refused"); return }
        #expect(r.target == "/v1/sync/self-status/71a8?x=%00")
    }

    @Test func aChunkSizeIsHexDigitsOnly() {
        let plus = "POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n+2\r\nab\r\n0\r\n\r\n"
        #expect(Self.refusal(Self.first(plus)) == 400)
        #expect(Self.refusal(Self.first("POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n-0\r\n\r\n")) == 400)
        guard case .request(let r, _)? = Self.first("POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2;ext=1\r\nab\r\n0\r\n\r\n") else {
            Issue.record("refused"); return
        }
        #expect(r.body == Array("ab".utf8))
    }

    @Test func aContentLengthWithALeadingZeroIsItsNumber() {
        // RFC 9110 §8.6: Content-Length = 1*DIGIT, so "08" is 8 (the fuzz target's first report
        // was of its own round trip copying the field; the reader is right).
        guard case .request(let r, _)? = Self.first("POST /x HTTP/1.1\r\nContent-Length: 08\r\n\r\n{\"a\":1}x") else { Issue.record("refused"); return }
        #expect(r.body == Array("{\"a\":1}x".utf8))
        let s = ConformanceFuzzSurfaces.named("http_request")!
        #expect(s.run([1] + Array("POST /v1/sync/self-status HTTP/1.1\r\nContent-Length: 08\r\n\r\n{\"a\":1}x".utf8)) == nil)
    }
}
