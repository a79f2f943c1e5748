import Foundation

/// `get_xml_registry` fragments, as pydio-core 8.2.5 sends them for a user
/// with the default workspaces (abridged to what `xPath=user` and
/// `xPath=user/repositories` return).
enum RegistryXML {
    /// `<repositories>…</repositories>`; `lastConnection` is the unix time of
    /// the user's last visit to workspace `1`.
    static func repositories(lastConnection: Int64) -> String {
        #"""
<repositories><repo access_type="fs" id="0" repository_type="local" allowCrossRepositoryCopy="true" repositorySlug="default" meta_syncable_REPO_SYNCABLE="true" acl="rw"><label>Common Files</label><description>Files shared amongst all users</description></repo><repo access_type="fs" id="1" repository_type="local" last_connection="\#(lastConnection)" allowCrossRepositoryCopy="true" userScope="true" repositorySlug="my-files" meta_syncable_REPO_SYNCABLE="true" acl="rw"><label>My Files</label><description>Your personal workspace</description></repo><repo access_type="ajxp_home" id="ajxp_home" repository_type="local" repositorySlug="welcome" acl="rw"><label>Home</label><description>Welcome page</description><client_settings icon="plugins/access.ajxp_home/share.png">
		<resources>
			<i18n namespace="user_home" path="plugins/access.ajxp_home/res/i18n"/>
            <js className="WelcomeComponents" file="plugins/access.ajxp_home/res/build/WelcomeComponents.js" depends="React,PydioComponents,PydioWorkspaces,PydioForm"/>
            <css file="plugins/access.ajxp_home/res/home.css" autoload="true"/>
		</resources>
        <node_provider ajxpClass="EmptyNodeProvider" ajxpOptions="{}"/>
	</client_settings></repo><repo access_type="inbox" id="inbox" repository_type="local" allowCrossRepositoryCopy="true" userScope="true" repositorySlug="inbox" acl="rw"><label>Shared Files</label><description>Files shared with me by other users</description></repo><repo access_type="ajxp_conf" id="ajxp_conf" repository_type="local" userScope="true" repositorySlug="settings" acl="rw"><label>Settings</label><description>Application parameters (users, workspaces, configurations)</description></repo></repositories>
"""#
    }

    /// `<preferences>…</preferences>` of `xPath=user`.
    static func preferences(displayName: String) -> String {
        #"""
<preferences><pref name="SKIP_USER_HISTORY" value="true"/><pref name="lang" value="" pluginId="core.conf"/><pref name="pending_folder" value=""/><pref name="plugins_preferences" value=""/><pref name="gui_preferences"><![CDATA[]]></pref><pref name="USER_DISPLAY_NAME" value="\#(displayName)" pluginId="core.conf"/><pref name="avatar" value="" pluginId="core.conf"/><pref name="email" value="" pluginId="core.conf"/><pref name="country" value="" pluginId="core.conf"/><pref name="DEFAULT_START_REPOSITORY" value="ajxp_home" pluginId="core.conf"/><pref name="activate_notifications" value="" pluginId="core.notifications"/><pref name="NOTIFICATIONS_EMAIL_GET" value="true" pluginId="core.mailer"/><pref name="NOTIFICATIONS_EMAIL_FREQUENCY" value="M" pluginId="core.mailer"/><pref name="NOTIFICATIONS_EMAIL_FREQUENCY_USER" value="5" pluginId="core.mailer"/><pref name="NOTIFICATIONS_EMAIL" value="" pluginId="core.mailer"/><pref name="NOTIFICATIONS_EMAIL_SEND_HTML" value="true" pluginId="core.mailer"/><pref name="yubikey_enabled" value="false" pluginId="authfront.otp"/><pref name="yubikey1" value="" pluginId="authfront.otp"/><pref name="yubikey2" value="" pluginId="authfront.otp"/><pref name="google_enabled" value="false" pluginId="authfront.otp"/></preferences>
"""#
    }

    /// `<ajxp_registry_part xPath="user/repositories" >…</ajxp_registry_part>`
    static func repositoriesPart(lastConnection: Int64) -> String {
        "<ajxp_registry_part xPath=\"user/repositories\" >" + repositories(lastConnection: lastConnection) + "</ajxp_registry_part>"
    }

    /// `<ajxp_registry_part xPath="user" ><user id="…">…</user></ajxp_registry_part>`
    static func userPart(user: String, isAdmin: Bool, lastConnection: Int64) -> String {
        let displayName = XMLText.escape(user == "admin" ? "Administrator" : user)
        return "<ajxp_registry_part xPath=\"user\" ><user id=\"\(XMLText.escape(user))\">"
            + "<active_repo id=\"ajxp_home\" write=\"1\" read=\"1\"/>"
            + repositories(lastConnection: lastConnection)
            + preferences(displayName: displayName)
            + "<special_rights is_admin=\"\(isAdmin ? 1 : 0)\"/></user></ajxp_registry_part>"
    }

    /// The empty part sent when nobody is logged in.
    static func emptyPart(xPath: String) -> String {
        "<ajxp_registry_part xPath=\"\(XMLText.escape(xPath))\" ></ajxp_registry_part>"
    }
}
