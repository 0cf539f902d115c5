/// The `conformance selftest` checks, as rule witnesses for the coverage gate (SPEC §2.3: rules
/// of the runner protocol are pinned by self-test checks).
public enum SelfTestWitnesses {
    public static var all: [RuleWitness] {
        SelfTest.checks.map { RuleWitness(id: $0.id, rules: $0.rules, twoFaults: $0.twoFaults) }
    }
}
