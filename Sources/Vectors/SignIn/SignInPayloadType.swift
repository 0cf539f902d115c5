/// The payload tags of the sign-in exchange (SPEC.md §8.2). Each sealed message carries its tag in
/// its own `type` member, so a payload read as the wrong message fails on the tag
/// (`signin_wrong_payload_type`) instead of on whichever member happens to be missing first.
///
/// The certificate, the grant and the discovery lookup response carry no tag: none of them is ever
/// the top-level payload of a sealed box, so no box can be mistaken for them.
public enum SignInPayloadType: String, Sendable, CaseIterable {
    case signinRequest = "signin_request"
    case signinAck = "signin_ack"
    case signinApproval = "signin_approval"
}
