/** English texts of connecting a tenant: admin consent, the fields' help, the app registration's permissions. */
export const tenantConnectionNamespaces = {
  tenantConnection: {
    connect: 'Connect by admin consent',
    grantConsent: 'Grant admin consent',
    consentTitle: 'Connect a tenant by admin consent',
    consentIntro:
      'An administrator of the Microsoft 365 tenant signs in at Microsoft and grants your app registration its permissions. The portal then takes the tenant ID from Microsoft, checks that your app registration gets a token there, and tests the connection. You type only what Microsoft cannot tell the portal: a name, and your app registration’s ID and secret.',
    renewTitle: 'Grant admin consent for “{{name}}”',
    renewIntro:
      'An administrator of the tenant signs in at Microsoft and grants the app registration of “{{name}}” the permissions it lists, for example after you added permissions to it. Then the connection is tested again.',
    manualInstead: 'Or enter every field yourself',
    continue: 'Continue',
    consentHeld: 'Admin consent granted through the portal on {{date}}, started by {{by}}.',
    consentNever: 'No admin consent was granted through the portal yet.',
    fields: {
      tenantName: 'A name of your choice, shown in the portal, for example “Contoso production”.',
      applicationId:
        'The ID Microsoft gave your app registration. Where: Microsoft Entra admin center › App registrations › your app › Overview › Application (client) ID.',
      clientSecret:
        'A password of your app registration: its Value, not its Secret ID. Where: App registrations › your app › Certificates & secrets › Client secrets › New client secret (Entra shows the Value only once). Stored encrypted, never shown again.',
      directory: 'Tenant ID or domain (optional)',
      directoryHelp:
        'Sends the administrator straight to this tenant’s sign-in, for example contoso.onmicrosoft.com. Leave it empty to consent in the administrator’s own tenant. Where: Entra admin center › Overview › Tenant ID or Primary domain.',
      tenantId:
        'Your Microsoft 365 organisation’s directory ID. Where: Entra admin center › Overview › Tenant ID (also App registrations › your app › Overview › Directory (tenant) ID).',
      objectId:
        'The ID of the app registration object itself, not the Application (client) ID. Where: App registrations › your app › Overview › Object ID.',
      redirectUri:
        'The portal’s address Microsoft sends the administrator back to after admin consent. Add it to the app registration: App registrations › your app › Authentication › Add a platform › Web › Redirect URIs.',
      redirectUriThis: 'This portal’s: {{uri}}',
      organisationId:
        'The portal organisation the tenant belongs to, not a Microsoft value: filled in with the organisation you are working as.',
      organisationIdNamed: 'This ID is {{name}}’s.',
    },
    guide: {
      title: 'Prepare the app registration',
      intro: 'Once per tenant, in the Microsoft Entra admin center (entra.microsoft.com), as an administrator:',
      register:
        'App registrations › New registration: a name (for example “Compliance Portal”), supported account types “Accounts in this organizational directory only”, redirect URI platform “Web” with the address below.',
      permissions:
        'API permissions › Add a permission › Microsoft Graph › Application permissions: add the permissions listed below. Granting them is what the admin consent does.',
      secret: 'Certificates & secrets › Client secrets › New client secret: copy its Value.',
      partner:
        'Partners may register one app for “Accounts in any organizational directory (multitenant)” and connect each client’s tenant with it: each client’s administrator consents in their own tenant.',
      redirectUri: 'Redirect URI (Web)',
    },
    permissions: {
      title: 'Permissions the app registration needs',
      intro:
        'Microsoft Graph application permissions (not delegated ones), each with the portal areas that use it. A higher privileged permission that includes one of these serves as well.',
      table: 'Microsoft Graph application permissions',
      permission: 'Permission',
      areas: 'Needed by',
      search: 'Search permissions and areas',
      empty: 'No permission matches.',
      failed: 'The permissions could not be loaded.',
      exportTitle: 'App registration permissions',
    },
    link: {
      title: 'Continue at Microsoft',
      intro:
        'Microsoft’s admin consent page asks an administrator of the tenant (a Global Administrator or a Privileged Role Administrator) to sign in and to accept the permissions your app registration lists. Microsoft then sends you back to this portal.',
      tenant: 'Tenant',
      tenantAny: 'the administrator’s own tenant',
      application: 'Application (client) ID',
      returnsTo: 'Returns to',
      expires: 'The link works until {{time}}; the portal waits that long for Microsoft’s answer.',
      go: 'Continue to Microsoft',
    },
    callback: {
      title: 'Admin consent',
      working: 'Finishing the admin consent…',
      granted: 'Admin consent granted for “{{name}}”: the tenant is connected.',
      declined: 'Admin consent was declined',
      declinedText:
        'The administrator cancelled on Microsoft’s consent page. Nothing was connected or changed. Start again once the permissions may be granted.',
      failed: 'Admin consent did not complete',
      code: 'Microsoft’s code: {{code}}',
      said: 'Microsoft’s message (in English): {{text}}',
      noAnswer:
        'This page receives Microsoft’s answer to an admin consent, and its address holds none. Start the consent on the tenants page.',
      test: 'Connection test',
      back: 'Back to the tenants',
      next: 'Next: choose where its backups and archives go.',
      nextAction: 'Add a storage location',
    },
    errors: {
      aadsts65004: 'The administrator declined the consent.',
      aadsts90094:
        'The account that signed in may not grant consent for the organisation. Sign in as a Global Administrator or Privileged Role Administrator, or ask one to.',
      aadsts700016:
        'Microsoft does not know this application (client) ID in the tenant. Check the ID, or sign in with an administrator of the tenant where the app is registered.',
      aadsts7000215:
        'Microsoft refused the client secret. Enter the secret’s Value (not its Secret ID), or create a new one.',
      aadsts7000222: 'The client secret has expired. Create a new one in the app registration.',
      aadsts7000229:
        'The app registration has no enterprise application (service principal) in this tenant, so it gets no token there. An administrator of this tenant must consent to it.',
      aadsts50011:
        'The portal’s address is not a redirect URI of the app registration. Add it under Authentication › Web › Redirect URIs.',
      aadsts90002: 'Microsoft does not know this tenant. Check the tenant ID or domain.',
      aadsts70011: 'Microsoft refused the permissions asked for (the scope).',
      aadsts900144: 'Microsoft found a parameter missing in the request.',
      aadsts50034: 'The account that signed in does not exist in this tenant.',
      otherTenant: 'The consent was given in another tenant than the one asked about. Nothing was changed.',
      invalidAnswer: 'Microsoft’s answer named no tenant. Nothing was connected.',
      generic: 'Microsoft answered “{{error}}”.',
    },
  },
} as const;
