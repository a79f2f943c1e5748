import Foundation

/// `cloud/capabilities`: the blocks of Nextcloud 24's and ownCloud 10.1's recorded answers for what
/// this server implements (core, files, dav, files_sharing; checksums for ownCloud), with the
/// version it reports, `dav.chunking` only when chunking is on, `files.versioning` on Nextcloud
/// (``VersionsEndpoint``).
enum Capabilities {
    static func value(_ core: ServerCore) -> OCSValue {
        let base = core.rootURL
        let chunking = core.configuration.chunking
        if core.isNextcloud {
            let version = Versions.nextcloud
            var dav: [(String, OCSValue)] = []
            if chunking { dav.append(("chunking", .string("1.0"))) }
            return .object([
                ("version", .object([
                    ("major", .int(Int64(version.major))), ("minor", .int(Int64(version.minor))), ("micro", .int(Int64(version.micro))),
                    ("string", .string(version.string)), ("edition", .string("")), ("extendedSupport", .bool(false)),
                ])),
                ("capabilities", .object([
                    ("core", .object([("pollinterval", .int(60)), ("webdav-root", .string("remote.php/webdav"))])),
                    ("bruteforce", .object([("delay", .int(0))])),
                    ("files", .object([
                        ("bigfilechunking", .bool(chunking)), ("blacklisted_files", .array([.string(".htaccess")])),
                        ("comments", .bool(true)), ("undelete", .bool(true)), ("versioning", .bool(true)),
                    ])),
                    ("dav", .object(dav)),
                    ("files_sharing", nextcloudSharing(base)),
                ])),
            ])
        }
        let version = Versions.owncloud
        var dav: [(String, OCSValue)] = []
        if chunking { dav.append(("chunking", .string("1.0"))) }
        dav.append(("reports", .array([.string("search-files")])))
        return .object([
            ("version", .object([
                ("major", .int(Int64(version.major))), ("minor", .int(Int64(version.minor))), ("micro", .int(Int64(version.micro))),
                ("string", .string(version.string)), ("edition", .string("Community")),
            ])),
            ("capabilities", .object([
                ("core", .object([
                    ("pollinterval", .int(60)), ("webdav-root", .string("remote.php/webdav")),
                    ("status", .object(StatusEndpoint.fields(core) + [("hostname", .string("127.0.0.1"))])),
                ])),
                ("checksums", .object([("supportedTypes", .array([.string("SHA1")])), ("preferredUploadType", .string("SHA1"))])),
                ("files", .object([
                    ("privateLinks", .bool(true)), ("bigfilechunking", .bool(chunking)),
                    ("blacklisted_files", .array([.string(".htaccess")])), ("undelete", .bool(true)), ("versioning", .bool(false)),
                ])),
                ("dav", .object(dav)),
                ("files_sharing", ownCloudSharing),
            ])),
        ])
    }

    private static func enabled(_ flag: Bool) -> OCSValue { .object([("enabled", .bool(flag))]) }

    private static func nextcloudSharing(_ base: String) -> OCSValue {
        .object([
            ("api_enabled", .bool(true)),
            ("public", .object([
                ("enabled", .bool(true)),
                ("password", .object([("enforced", .bool(false)), ("askForOptionalPassword", .bool(false))])),
                ("expire_date", enabled(false)), ("multiple_links", .bool(true)), ("expire_date_internal", enabled(false)),
                ("expire_date_remote", enabled(false)), ("send_mail", .bool(false)), ("upload", .bool(true)),
                ("upload_files_drop", .bool(true)),
            ])),
            ("resharing", .bool(true)),
            ("user", .object([("send_mail", .bool(false)), ("expire_date", enabled(true))])),
            ("group_sharing", .bool(true)),
            ("group", .object([("enabled", .bool(true)), ("expire_date", enabled(true))])),
            ("default_permissions", .int(31)),
            ("federation", .object([
                ("outgoing", .bool(false)), ("incoming", .bool(false)), ("expire_date", enabled(true)),
                ("expire_date_supported", enabled(true)),
            ])),
            ("sharee", .object([("query_lookup_default", .bool(false)), ("always_show_unique", .bool(true))])),
        ])
    }

    private static let ownCloudSharing: OCSValue = .object([
        ("api_enabled", .bool(true)),
        ("public", .object([
            ("enabled", .bool(true)),
            ("password", .object([
                ("enforced_for", .object([("read_only", .bool(false)), ("read_write", .bool(false)), ("upload_only", .bool(false))])),
                ("enforced", .bool(false)),
            ])),
            ("expire_date", enabled(false)), ("send_mail", .bool(false)), ("social_share", .bool(true)), ("upload", .bool(true)),
            ("multiple", .bool(true)), ("supports_upload_only", .bool(true)), ("defaultPublicLinkShareName", .string("Public link")),
        ])),
        ("user", .object([("send_mail", .bool(false))])),
        ("resharing", .bool(true)), ("group_sharing", .bool(true)), ("auto_accept_share", .bool(true)),
        ("share_with_group_members_only", .bool(true)), ("share_with_membership_groups_only", .bool(true)), ("can_share", .bool(true)),
        ("user_enumeration", .object([("enabled", .bool(true)), ("group_members_only", .bool(false))])),
        ("default_permissions", .int(31)),
        ("federation", .object([("outgoing", .bool(false)), ("incoming", .bool(false))])),
        ("search_min_length", .int(2)),
    ])
}
