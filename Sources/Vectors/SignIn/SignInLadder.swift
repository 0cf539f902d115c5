/// The sibling's guard ladder (SPEC.md §8.6), a pure function of the request bytes, the pinned
/// phone-verify key, this device's own cached certificate and the clock.
///
/// Every failure is a silent drop on the wire; here it is a verdict naming the first rung that
/// failed and why, so vectors can demand that each rung exists: a ladder missing a rung accepts a
/// request that one of the drop vectors expects it to drop.
public enum SignInLadder {
    /// Rung 5's window: |timestamp_s − now_s| ≤ 120 is accepted (inclusive).
    public static let skewSeconds: UInt64 = 120

    public enum Verdict: Sendable, Hashable {
        case accept(SignInRequest, phoneID: [UInt8])
        case drop(rung: Int, reason: ErrorCode)
    }

    public static func run(request bytes: [UInt8], pinnedKey: PhoneVerifyKey.PublicKey?, ownCert: [UInt8]?, now: UInt64) -> Verdict {
        // 1. the payload decodes as a signin_request.
        let request: SignInRequest
        do { request = try SignInRequest.decode(bytes) } catch { return .drop(rung: 1, reason: error.code) }
        // 2. the cert verifies against the pinned key, both halves, and has not expired.
        let cert: PhoneOwnershipCert
        do { cert = try PhoneOwnershipCert.verify(request.cert, pinnedKey: pinnedKey, now: now) } catch {
            return .drop(rung: 2, reason: error.code)
        }
        // 3. this device has its own cached cert to compare against (it need only decode).
        if Mutant.on(.signinOwnCertNotRequired), ownCert == nil { return .accept(request, phoneID: cert.phoneID) }
        guard let ownCert else { return .drop(rung: 3, reason: .signinNoOwnCert) }
        guard let own = try? PhoneOwnershipCert.decode(ownCert) else { return .drop(rung: 3, reason: .signinOwnCertMalformed) }
        // 4. the request's phone_id equals this device's.
        guard cert.phoneID == own.phoneID || Mutant.on(.signinPhoneIDsNotCompared) else { return .drop(rung: 4, reason: .signinPhoneIDMismatch) }
        // 5. the timestamp is within ±120 s, computed without leaving UInt64.
        let skewSeconds = Mutant.on(.signinWindow121) ? Self.skewSeconds + 1 : Self.skewSeconds
        if Mutant.on(.signinTimestampSigned) {
            // The bug: both values as Int64, the difference taken without comparing first.
            let d = Int64(bitPattern: now) &- Int64(bitPattern: request.timestamp)
            if d > Int64(skewSeconds) { return .drop(rung: 5, reason: .signinTimestampTooOld) }
            if d < -Int64(skewSeconds) { return .drop(rung: 5, reason: .signinTimestampTooNew) }
            return .accept(request, phoneID: cert.phoneID)
        }
        if request.timestamp < now, now - request.timestamp > skewSeconds { return .drop(rung: 5, reason: .signinTimestampTooOld) }
        if request.timestamp > now, request.timestamp - now > skewSeconds { return .drop(rung: 5, reason: .signinTimestampTooNew) }
        return .accept(request, phoneID: cert.phoneID)
    }
}
