import Foundation

extension ItemPath {
    /// Checks a move or copy of the item at this path to `destination` before anything is sent,
    /// as the contract requires of every adapter: neither path is the root, and the destination
    /// is neither this path nor below it (a folder cannot go into itself).
    ///
    /// ```swift
    /// try source.checkTransfer(to: destination, action: "move")
    /// ```
    ///
    /// - Parameters:
    ///   - destination: where the item would go.
    ///   - action: the operation, as the message names it (`move`, `copy`).
    /// - Throws: ``ProviderError/Code/invalidArgument`` for the root or a destination at or below this path.
    package func checkTransfer(to destination: ItemPath, action: String = "move or copy") throws {
        if isRoot || destination.isRoot {
            throw ProviderError(.invalidArgument, "the root cannot be moved, copied or replaced")
        }
        if destination.isDescendant(of: self) {
            throw ProviderError(.invalidArgument, "cannot \(action) \(self) into itself (\(destination))")
        }
    }
}
