/// The `conformance selftest` checks, as rule witnesses for the coverage gate (SPEC §2.3: rules
/// of the runner protocol are pinned by self-test checks). Empty until the self-test exists.
public enum SelfTestWitnesses {
    public static var all: [RuleWitness] { [] }
}
