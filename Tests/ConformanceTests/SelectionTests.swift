import Conformance
import Testing
import Vectors

@Suite struct SelectionTests {
    @Test func globsMatchAnyRunOfCharacters() {
        #expect(IDPattern("state_digest/leaf/*").matches("state_digest/leaf/messages/typical"))
        #expect(IDPattern("*/typical").matches("state_digest/leaf/messages/typical"))
        #expect(IDPattern("state_digest/*/messages/*").matches("state_digest/root/messages/empty"))
        #expect(!IDPattern("state_digest/*/memory/*").matches("state_digest/root/messages/empty"))
        #expect(IDPattern("a*b*c").matches("abc") && IDPattern("a*b*c").matches("axxbyyc") && !IDPattern("a*b*c").matches("acb"))
        #expect(IDPattern("exact").matches("exact") && !IDPattern("exact").matches("exact/more"))
        #expect(IDPattern("*").matches(""))
    }

    @Test func shardsPartitionTheSuite() throws {
        let ids = try SuiteLoader.load(directory: Fixtures.vectors).map(\.id)
        #expect(ids.count == Fixtures.totalCases)
        for n in [1, 2, 3, 7] {
            var union: [String] = []
            var sizes: [Int] = []
            for k in 1...n {
                let shard = try #require(Shard(index: k, count: n))
                let part = ids.filter(shard.contains)
                sizes.append(part.count)
                union += part
            }
            #expect(union.count == ids.count, "shards of \(n) overlap or miss cases")
            #expect(Set(union) == Set(ids))
            #expect(sizes.allSatisfy { $0 > 0 })
        }
    }

    @Test func shardIsAStableHashOfTheID() {
        // First 8 bytes of SHA-256("abc") = ba7816bf8f01cfea = 13436514054426140650.
        #expect(Shard.bucket(of: "abc", count: 1_000_000_007) == Int(UInt64(0xba7816bf8f01cfea) % 1_000_000_007))
        #expect(Shard("2/3") == Shard(index: 2, count: 3))
        #expect(Shard("0/3") == nil && Shard("4/3") == nil && Shard("x") == nil)
    }

    @Test func selectionCombinesRunSkipFormatAndShard() throws {
        let suite = try Fixtures.suite(["state_digest", "reconcile"])
        let sel = CaseSelection(run: [IDPattern("state_digest/root/*")], skip: [IDPattern("*/settings/*")], formats: ["state_digest"])
        let picked = sel.apply(suite).map(\.id)
        let byHand = suite.map(\.id).filter { $0.hasPrefix("state_digest/root/") && !$0.hasPrefix("state_digest/root/settings/") }
        #expect(picked == byHand)
        #expect(picked.count >= 31)
        #expect(picked.allSatisfy { $0.hasPrefix("state_digest/root/") && !$0.contains("/settings/") })
        #expect(!sel.isComplete && CaseSelection().isComplete)
        #expect(CaseSelection(run: [IDPattern("nothing/*")]).unmatchedRunPatterns(in: suite) == [IDPattern("nothing/*")])
    }
}
