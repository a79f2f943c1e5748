import Foundation
import ProviderAPI

/// Public links, where declared: a link really delivers the file to anyone holding it, a password
/// keeps it closed, revoking closes it, and its expiry is the one asked or within the rounding the
/// provider declares.
///
/// Links are opened as a stranger would (`LinkOpener`): a plain `GET` of `Share.downloadURL`
/// (else `Share.url`) without credentials, through the run's base transport.
enum ShareCases {
    static var all: [ConformanceCase] { [publicLink, passwordLink, expiry] }

    /// The file every case shares: a few hundred random bytes, so that a page about the file or
    /// an error text can never pass for it.
    private static func sharedFile(_ context: ConformanceContext) async throws -> (Item, [UInt8]) {
        guard context.capabilities.shareKinds.contains(.publicLink) else { throw ConformanceSkip(.shareKind(.publicLink)) }
        let bytes = RandomBytes.make(777)
        return (try await context.upload(bytes, as: "shared.bin"), bytes)
    }

    static let publicLink = ConformanceCase(
        "shares.publicLink", requires: .shares,
        summary: "A public link delivers the file's exact bytes without credentials, is listed by shares(of:), and stops working when revoked"
    ) { context in
        let (file, bytes) = try await sharedFile(context)
        let share = try await context.provider.share(file.path, with: ShareRequest(kind: .publicLink))
        try context.expect(share.kind == .publicLink, "share(.publicLink) returned a share of kind \(share.kind)")
        try context.expect(share.path == file.path, "share returned the path \(share.path), not \(file.path)")
        try context.expect(!share.passwordProtected, "a link asked without a password says it is password-protected")
        let link = try LinkOpener.link(of: share, context: context)
        let opened = try await LinkOpener.open(link, context: context)
        try context.expect(
            opened.delivers(bytes),
            "GET of the link (\(share.downloadURL == nil ? "url" : "downloadURL")) without credentials answered \(opened.summary), not the file's \(bytes.count) bytes")
        let listed = try await context.provider.shares(of: file.path)
        try context.expect(listed.contains { $0.id == share.id }, "shares(of:) lists \(listed.map(\.id)), not the new share \(share.id)")
        try await context.provider.revoke(share)
        let after = try await context.provider.shares(of: file.path)
        try context.expect(!after.contains { $0.id == share.id }, "shares(of:) still lists the share \(share.id) after revoke")
        let revoked = try await LinkOpener.open(link, context: context)
        try context.expect(!revoked.delivers(bytes), "the revoked link still delivers the file (\(revoked.summary))")
    }

    static let passwordLink = ConformanceCase(
        "shares.passwordLink", requires: .shares,
        summary: "A public link made with a password says so and does not deliver the file to a GET without the password"
    ) { context in
        let (file, bytes) = try await sharedFile(context)
        let password = "Strata-\(RandomName.token())-pw"
        let share: Share
        do {
            share = try await context.provider.share(file.path, with: ShareRequest(kind: .publicLink, password: password))
        } catch let error as ProviderError where error.code == .unsupported {
            context.note("password-protected links are unsupported: \(error.message ?? "share(password:) threw unsupported")")
            return
        }
        try context.expect(share.passwordProtected, "a link asked with a password came back without one (passwordProtected is false)")
        let listed = try await context.provider.shares(of: file.path).first { $0.id == share.id }
        try context.expect(listed?.passwordProtected == true, "shares(of:) lists the password link as \(listed.map { $0.passwordProtected ? "protected" : "open" } ?? "missing")")
        let link = try LinkOpener.link(of: share, context: context)
        let opened = try await LinkOpener.open(link, context: context)
        try context.expect(!opened.delivers(bytes), "GET of the password-protected link without its password delivered the file")
        context.note("without the password the link answered HTTP \(opened.status)")
        try await context.provider.revoke(share)
    }

    /// How far a server's reading of an expiry may differ from the adapter's report of it
    /// (servers that show minutes; clocks a little apart).
    static let listingTolerance: TimeInterval = 120

    static let expiry = ConformanceCase(
        "shares.expiry", requires: .shares,
        summary: "A link's expiry is the one asked, or within capabilities.shareExpiryGranularity and reported as the server set it"
    ) { context in
        let (file, _) = try await sharedFile(context)
        // Three days, seven hours and a few odd minutes ahead: not on any day's or hour's boundary.
        let asked = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 3 * 86_400 + 7 * 3_600 + 13 * 60 + 29).rounded(.down))
        let share = try await context.provider.share(file.path, with: ShareRequest(kind: .publicLink, expires: asked))
        guard let kept = share.expires else {
            throw ConformanceFailure("share(expires:) returned a share without an expiry: the expiry the server set is not reported")
        }
        let granularity = context.capabilities.shareExpiryGranularity
        let allowed = granularity.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 } ?? 0
        let offset = kept.timeIntervalSince(asked)
        try context.expect(
            abs(offset) <= allowed + 1,
            "asked an expiry of \(asked), the share reports \(kept) (\(Int(offset)) s apart)"
                + (granularity.map { "; the declared granularity is \($0)" } ?? "; capabilities.shareExpiryGranularity is nil (exact)"))
        if offset.magnitude > 1 {
            context.note("asked \(asked), the server keeps \(kept) (\(Int(offset.magnitude)) s \(offset > 0 ? "later" : "earlier"))")
        }
        let listed = try await context.provider.shares(of: file.path).first { $0.id == share.id }
        let listedExpiry = try requireListed(listed, share, context)
        try context.expect(
            abs(listedExpiry.timeIntervalSince(kept)) <= listingTolerance,
            "share(expires:) reported \(kept), but shares(of:) lists the link expiring \(listedExpiry)")
        try await context.provider.revoke(share)
    }

    /// The listed share's expiry, or a failure saying what is missing.
    private static func requireListed(_ listed: Share?, _ share: Share, _ context: ConformanceContext) throws -> Date {
        guard let listed else { throw ConformanceFailure("shares(of:) does not list the new share \(share.id)") }
        guard let expires = listed.expires else { throw ConformanceFailure("shares(of:) lists the share \(share.id) without its expiry") }
        return expires
    }
}
