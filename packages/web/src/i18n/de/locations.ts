import type { Leaves } from '../en';
import type { locationsNamespaces as En } from '../en/locations';

/** German texts of the storage locations: the same keys as the English ones. */
export const locationsNamespaces: Leaves<typeof En> = {
  locations: {
    intro:
      'Ein Speicherort legt fest, wo ein Auftrag ablegt, was er sichert oder archiviert. Wo immer das ist: Die Daten werden mit dem Schlüssel Ihrer Organisation verschlüsselt.',
    where: 'Wohin die Daten gehen',
    lastTest: 'Letzter Test',
    kinds: {
      server: 'Eigener Speicher des Portals',
      azureBlob: 'Azure Blob Storage',
      s3: 'S3',
    },
    serverStore:
      'Vom Betreiber des Portals betrieben: auf dem Portalserver oder in dem Speicher, den der Betreiber gewählt hat.',
    siteAddress: 'Websiteadresse {{address}}',
    siteAddressNote:
      'Sie benennt den Speicherort nur, etwa nach der SharePoint-Website, zu der die Daten gehören: Das Portal schreibt nie dorthin.',
    probe: {
      ok: 'Funktioniert',
      failed: 'Fehlgeschlagen',
      at: 'Getestet am {{at}}',
      never: 'Noch nicht getestet',
      server: 'Nicht je Speicherort getestet',
      test: 'Testen',
      testOf: 'Speicher von „{{name}}“ testen',
      worked: '„{{name}}“: Der Speicher funktioniert.',
      failedToast: '„{{name}}“: Der Test ist fehlgeschlagen.',
      failure: 'Der Test konnte nicht ausgeführt werden.',
    },
    guide: {
      done_one: '{{count}} Speicherort: {{where}}.',
      done_other: '{{count}} Speicherorte: {{where}}.',
      in: {
        server: '{{count}} im eigenen Speicher des Portals',
        azureBlob: '{{count}} in Azure Blob Storage',
        s3: '{{count}} in S3',
      },
    },
    form: {
      siteAddressHelp: {
        intro: 'Die Adresse bestimmt, wohin die Daten gehen:',
        azureBlob:
          'Azure Blob Storage: die URL des Containers, https://<konto>.blob.core.windows.net/<container>, mit dem Kontoschlüssel als Geheimnis.',
        s3: 'S3: s3://<bucket>, für einen S3-kompatiblen Dienst mit ?endpoint=<url>, dazu die Zugriffsschlüssel-ID und das Geheimnis.',
        server:
          'Jede andere Adresse, etwa eine SharePoint-Website: der eigene Speicher des Portals. Die Adresse benennt den Speicherort dann nur; das Portal schreibt nie auf die Website.',
      },
      goesTo: 'Wohin die Daten gehen: {{kind}}.',
      tested: 'Beim Speichern wird der Speicher getestet: Ein Testobjekt wird geschrieben, zurückgelesen und gelöscht.',
      serverNotTested:
        'Der eigene Speicher des Portals liegt in der Hand seines Betreibers und wird hier nicht getestet.',
    },
  },
};
