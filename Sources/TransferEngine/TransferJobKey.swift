import Foundation
import ProviderAPI

/// What identifies a transfer job: its mode and its two ends (account and path each).
package struct TransferJobKey: Sendable, Hashable {
    /// `copy`, `sync` or `check`.
    package var mode: String
    /// The source's account.
    package var sourceAccount: ProviderAccount
    /// The source folder or file.
    package var sourcePath: ItemPath
    /// The destination's account.
    package var destinationAccount: ProviderAccount
    /// The destination folder or file.
    package var destinationPath: ItemPath

    /// Creates a key.
    package init(mode: String, sourceAccount: ProviderAccount, sourcePath: ItemPath, destinationAccount: ProviderAccount, destinationPath: ItemPath) {
        self.mode = mode
        self.sourceAccount = sourceAccount
        self.sourcePath = sourcePath
        self.destinationAccount = destinationAccount
        self.destinationPath = destinationPath
    }
}
