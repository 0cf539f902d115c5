import Primitives

/// The models of device_list's two-fault cases whose faults the byte comparison cannot split
/// (issue 23, item 4): both live in one signed value. A changed account_id is a fault of its own
/// (it no longer names the pinned account) and also leaves the signature over other bytes than the
/// wire's; a forced HVNLEAF1 tail both shortens the signature and selects a preimage it was not
/// made over. Putting back one changed byte puts back both, so each model builds the input from
/// the faults switched on, signing afresh where a fault is off, and `TwoFaultModel.audit` proves
/// it is the committed case and that only the earlier check's fault decides it.
extension DeviceListVectors {
    static func twoFaultModels(_ ids: Identities) throws -> [TwoFaultModel] {
        let a = ids.a, pa = ids.a.bundle.bytes
        let iphone = try iphoneCredential(ids)
        let withRevoked = SignedLists(ids).withRevoked
        let dup = duplicateIDsList(ids)
        @Sendable func input(_ wire: [UInt8]) -> CBOR { .object([("wire", .bytes(wire)), ("pinned", .bytes(pa))]) }
        /// Account A's id with bit 0 of byte `at` flipped, as the tamper cases flip it.
        @Sendable func otherAccount(at i: Int) -> DeviceID { DeviceID(unchecked: flip(a.nodeID.bytes, at: i)) }
        /// Faults `account` (the wire names another account than the pinned one) and `signature`
        /// (the signature was made over the other account id than the wire's). With both on, the
        /// wire names the other account under A's signature over A's own id: the committed
        /// tamper, one changed byte. Checked in that order (§10.2, §10.3: the ids first).
        @Sendable func accounts(_ s: FaultSet, flipping i: Int) -> (wire: DeviceID, signed: DeviceID) {
            let wire = s.has("account") ? otherAccount(at: i) : a.nodeID
            return (wire, s.has("account") != s.has("signature") ? otherAccount(at: i) : a.nodeID)
        }
        func listAccount(_ id: String, _ list: DeviceList, flipping i: Int) -> TwoFaultModel {
            TwoFaultModel("device_list/list_verify/\(id)", op: "list_verify", first: "account", second: "signature") { s in
                let (wire, signed) = accounts(s, flipping: i)
                var l = list
                l.accountID = signed
                l.signature = a.sign(l.signingBytes)
                l.accountID = wire
                return input(l.wire)
            }
        }
        return [
            TwoFaultModel("device_list/credential_verify/tamper/account-id\(realKEMSuffix)", op: "credential_verify", first: "account", second: "signature") { s in
                let (wire, signed) = accounts(s, flipping: 0)
                var c = iphone
                c.accountID = signed
                c.signature = a.sign(c.signingBytes)
                c.accountID = wire
                return input(c.wire)
            },
            listAccount("tamper/account-id\(realKEMSuffix)", withRevoked, flipping: 5),
            listAccount("order/account-before-signature\(realKEMSuffix)", dup, flipping: 0),
            // Faults `unsigned-flag` (the signature was made over the non-retired preimage, not the
            // retired one HVNLEAF1 selects) and `short` (the signature's last 8 bytes gone). Both
            // on: the non-retired signature with its last 8 bytes replaced by HVNLEAF1, the
            // committed case. The Ed25519 half is judged before the length once the signature is
            // longer than 64 bytes (§10.1), so the unsigned flag decides it.
            TwoFaultModel("device_list/list_verify/hvnleaf1/forced-tail\(realKEMSuffix)", op: "list_verify", first: "unsigned-flag", second: "short") { s in
                var l = withRevoked
                l.accountLeafRetired = !s.has("unsigned-flag")
                let signature = a.sign(l.signingBytes)
                l.accountLeafRetired = true
                l.signature = s.has("short") ? Array(signature.dropLast(DeviceList.retiredWireSuffix.count)) : signature
                return input(l.wire)
            },
        ]
    }
}
