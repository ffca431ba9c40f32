/**
 * English texts of the storage locations: where a location's data goes, what its SharePoint site
 * address is for, and the test of its store (namespaces spread into ../en.ts).
 */
export const locationsNamespaces = {
  locations: {
    intro:
      'A location says where a job keeps what it backs up or archives. Wherever that is, the data is encrypted with your organisation’s key.',
    where: 'Where the data goes',
    lastTest: 'Last test',
    kinds: {
      server: 'The portal’s own store',
      azureBlob: 'Azure Blob Storage',
      s3: 'S3',
    },
    serverStore: 'Run by the portal’s operator: on the portal server or in the storage the operator chose.',
    siteAddress: 'Site address {{address}}',
    siteAddressNote:
      'It only names the location, such as the SharePoint site the data belongs to: the portal never writes to it.',
    probe: {
      ok: 'Works',
      failed: 'Failed',
      at: 'Tested {{at}}',
      never: 'Not tested yet',
      server: 'Not tested per location',
      test: 'Test',
      testOf: 'Test the store of “{{name}}”',
      worked: '“{{name}}”: the store works.',
      failedToast: '“{{name}}”: the test failed.',
      failure: 'The test could not be run.',
    },
    guide: {
      done_one: '{{count}} storage location: {{where}}.',
      done_other: '{{count}} storage locations: {{where}}.',
      in: {
        server: '{{count}} in the portal’s own store',
        azureBlob: '{{count}} in Azure Blob Storage',
        s3: '{{count}} in S3',
      },
    },
    form: {
      siteAddressHelp: {
        intro: 'The address chooses where the data goes:',
        azureBlob:
          'Azure Blob Storage: the container’s URL, https://<account>.blob.core.windows.net/<container>, with the account key as the secret.',
        s3: 'S3: s3://<bucket>, with ?endpoint=<url> for an S3-compatible service, and the access key ID and secret.',
        server:
          'Any other address, such as a SharePoint site: the portal’s own store. The address then only names the location; the portal never writes to the site.',
      },
      goesTo: 'Where the data goes: {{kind}}.',
      tested: 'Saving tests the store: a test object is written, read back and deleted.',
      serverNotTested: 'The portal’s own store is run by the portal’s operator and not tested here.',
    },
  },
} as const;
