/// Device credentials, device lists and advertisements under the fuzzer. The credential and the
/// list are Haven's little-endian layouts (§10) and have no encode op that takes a decoded value
/// (issuing signs), so their check is that a rejection is the format's and an answer renders; the
/// advertisement is comma-separated text.
enum DeviceListFuzzSurfaces {
    static let all: [FuzzSurface] = [
        .decodeOps("device_list", "credential_decode/list_decode: rejections carry §10 codes, answers render",
                   handler: DeviceListHandler(), [
                       FuzzDecodeOp("credential_decode", .hex("wire")),
                       FuzzDecodeOp("list_decode", .hex("wire")),
                   ]),
        .decodeOps("device_advertisement", "advertisement_decode: rejections carry §10 codes, answers render",
                   handler: DeviceListHandler(), [FuzzDecodeOp("advertisement_decode", .text("csv"))]),
    ]
}
