import Foundation
import ProviderAPI

/// What identifies a transfer job: its mode and its two ends (account and path each).
public struct TransferJobKey: Sendable, Hashable {
    /// `copy`, `sync` or `check`.
    public var mode: String
    /// The source's account.
    public var sourceAccount: ProviderAccount
    /// The source folder or file.
    public var sourcePath: ItemPath
    /// The destination's account.
    public var destinationAccount: ProviderAccount
    /// The destination folder or file.
    public var destinationPath: ItemPath

    /// Creates a key.
    public init(mode: String, sourceAccount: ProviderAccount, sourcePath: ItemPath, destinationAccount: ProviderAccount, destinationPath: ItemPath) {
        self.mode = mode
        self.sourceAccount = sourceAccount
        self.sourcePath = sourcePath
        self.destinationAccount = destinationAccount
        self.destinationPath = destinationPath
    }
}
