import ProviderAPI

/// One action of a job's plan, as a ``TransferJobStore`` records it.
package struct TransferJobAction: Sendable, Hashable {
    /// How far an action got.
    package enum State: String, Sendable, Hashable {
        /// Planned, not done yet (or interrupted).
        case planned
        /// Done: for a file, the destination confirmed the upload.
        case done
        /// Tried, and failed.
        case failed
    }

    /// The item below the job's two roots.
    package var relativePath: ItemPath
    /// What the action does (the transfer engine's action kind: `copyFile`, `createFolder`, `delete`).
    package var kind: String
    /// How far it got.
    package var state: State
    /// For a finished file: what was read and what was written.
    package var finished: FinishedFile?

    /// Creates an action record.
    package init(relativePath: ItemPath, kind: String, state: State = .planned, finished: FinishedFile? = nil) {
        self.relativePath = relativePath
        self.kind = kind
        self.state = state
        self.finished = finished
    }
}
