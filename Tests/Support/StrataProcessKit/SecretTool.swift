import Foundation

/// libsecret's `secret-tool` (Debian's libsecret-tools), for the keyring tests to read what the
/// Secret Service holds without Strata's code in between.
public enum SecretTool {
    /// What one run printed, and its exit status (1 when `lookup` finds nothing).
    public struct Result: Sendable {
        public var status: Int32
        public var output: String
    }

    /// Runs `secret-tool arguments` with this process's environment (its session bus).
    public static func run(_ arguments: [String]) async throws -> Result {
        try await run(URL(fileURLWithPath: "/usr/bin/secret-tool"), arguments)
    }

    /// Stores `secret` (given on standard input, as `secret-tool store` reads it) labelled `label`
    /// with the attributes `attributes` (name, value, name, value…).
    public static func store(_ secret: String, label: String, attributes: [String]) async throws -> Result {
        try await run(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", #"printf '%s' "$0" | exec /usr/bin/secret-tool "$@""#, secret, "store", "--label=\(label)"] + attributes)
    }

    private static func run(_ executable: URL, _ arguments: [String]) async throws -> Result {
        let child = try ChildProcess(executable: executable, arguments: arguments, output: .pipe, error: .output)
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let data = child.readToEnd()
                let termination = child.waitUntilExit()
                continuation.resume(returning: Result(status: termination.status, output: String(decoding: data, as: UTF8.self)))
            }
        }
    }
}
