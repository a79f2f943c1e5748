import Foundation

/// Opens a page in the user's browser without waiting for it: `open` on macOS; `xdg-open` on
/// Linux when a desktop session is there (`DISPLAY` or `WAYLAND_DISPLAY` is set).
enum BrowserOpener {
    /// Starts the opener for `url` (an `http`/`https` URL only); whether one was started. Its
    /// input and output are `/dev/null`, and it is never waited for.
    @discardableResult
    static func open(_ url: URL, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        guard NextcloudLoginFlow.isWeb(url), let opener = opener(environment) else { return false }
        let process = Process()
        process.executableURL = opener
        process.arguments = [url.absoluteString]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return false }
        return true
    }

    /// The program that opens a URL here, if any.
    static func opener(_ environment: [String: String]) -> URL? {
        #if os(macOS)
            return URL(fileURLWithPath: "/usr/bin/open")
        #else
            let desktop = [environment["DISPLAY"], environment["WAYLAND_DISPLAY"]].contains { !($0 ?? "").isEmpty }
            guard desktop else { return nil }
            let folders = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
            return folders.map { URL(fileURLWithPath: String($0)).appendingPathComponent("xdg-open") }
                .first { FileManager.default.isExecutableFile(atPath: $0.path) }
        #endif
    }
}
