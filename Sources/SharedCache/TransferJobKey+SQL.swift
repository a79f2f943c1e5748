import GRDB
import TransferEngine

extension TransferJobKey {
    /// The condition selecting the rows of this job in the job tables.
    static var whereClause: String {
        "mode = ? AND sourceAccount = ? AND sourcePath = ? AND destinationAccount = ? AND destinationPath = ?"
    }

    /// The arguments of ``whereClause``.
    var arguments: StatementArguments {
        [mode, sourceAccount.storageKey, sourcePath.storageKey, destinationAccount.storageKey, destinationPath.storageKey]
    }
}
