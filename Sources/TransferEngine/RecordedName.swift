import ProviderAPI

/// A name a transfer gave an item on its destination that differs from the source's name (mapped:
/// encoded, decoded or normalised), kept so that a transfer the other way maps it back.
package struct RecordedName: Sendable, Hashable {
    /// The item below the destination's root, with the destination's names as it stores them.
    package var destinationPath: ItemPath
    /// The item's name on the source.
    package var sourceName: String

    /// Creates a record.
    package init(destinationPath: ItemPath, sourceName: String) {
        self.destinationPath = destinationPath
        self.sourceName = sourceName
    }
}
