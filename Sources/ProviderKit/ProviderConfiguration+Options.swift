import Foundation
import ProviderAPI

extension PageLimits {
    /// These limits with the `maxPages` and `maxEntries` options of `options` applied.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` when an option is not a whole number of at least 1.
    package func applying(options: [String: String]) throws -> PageLimits {
        var reader = OptionReader(options)
        return try applying(&reader)
    }

    /// These limits with the `maxPages` and `maxEntries` options `reader` holds applied.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` when an option is not a whole number of at least 1.
    package func applying(_ reader: inout OptionReader) throws -> PageLimits {
        var limits = self
        if let value = try reader.integer("maxPages", minimum: 1) { limits.maxPages = value }
        if let value = try reader.integer("maxEntries", minimum: 1) { limits.maxEntries = value }
        return limits
    }
}

extension ProviderConfiguration {
    /// `ProviderConfiguration.pageLimits` with the `maxPages` and `maxEntries` options applied.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` when an option is not a whole number of at least 1.
    package func resolvedPageLimits() throws -> PageLimits {
        try pageLimits.applying(options: options)
    }

    /// Reads the string `ProviderConfiguration.options` once, as a factory does before making a
    /// provider: `read` takes the adapter's own options into its typed configuration, the
    /// `maxPages` and `maxEntries` options go to `ProviderConfiguration.pageLimits`, and any
    /// other option fails.
    ///
    /// ```swift
    /// public func makeProvider(_ configuration: ProviderConfiguration) throws -> any StorageProvider {
    ///     let (common, folder) = try configuration.readingOptions(for: kind) { reader in
    ///         var folder = FolderProvider.Configuration()
    ///         if let value = try reader.flag("followLinks") { folder.followsLinks = value }
    ///         return folder
    ///     }
    ///     return try FolderProvider(configuration: common, folder: folder)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - adapter: the adapter's name, for messages (`nuxeo`).
    ///   - read: reads the adapter's options from the reader.
    /// - Returns: this configuration with the page limits applied and no string options left
    ///   (the provider reads typed values only), and what `read` returned.
    /// - Throws: `ProviderError.Code.invalidArgument` for a malformed value or an option the
    ///   adapter does not know, naming the option.
    public func readingOptions<Value>(
        for adapter: String, _ read: (inout OptionReader) throws -> Value
    ) throws -> (configuration: ProviderConfiguration, value: Value) {
        var reader = OptionReader(options)
        let value = try read(&reader)
        var configuration = self
        configuration.pageLimits = try pageLimits.applying(&reader)
        try reader.rejectUnread(adapter: adapter)
        configuration.options = [:]
        return (configuration, value)
    }
}
