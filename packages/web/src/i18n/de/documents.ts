import type { Leaves } from '../en';
import type { documentsNamespaces as En } from '../en/documents';

/** German texts of the documents page: the same keys as the English ones. */
export const documentsNamespaces: Leaves<typeof En> = {
  documents: {
    title: 'Dokumente',
    intro: 'Verträge, Berichte und andere Dokumente Ihrer Organisation als PDF-Dateien.',
    types: { contracts: 'Verträge', reports: 'Berichte', others: 'Sonstige' },
    list: '{{type}}',
    name: 'Name',
    size: 'Größe',
    uploaded: 'Hochgeladen',
    uploadedBy: 'Von',
    empty: 'Es gibt noch keine Dokumente dieses Typs.',
    search: 'Dokumente durchsuchen',
    download: '{{name}} herunterladen',
    remove: '{{name}} löschen',
    removeTitle: 'Dieses Dokument löschen?',
    removeText: '„{{name}}“ wird für alle in Ihrer Organisation gelöscht. Dies kann nicht rückgängig gemacht werden.',
    removed: '„{{name}}“ wurde gelöscht.',
    upload: 'Dokument hochladen',
    file: 'PDF-Datei',
    chooseFile: 'PDF-Datei auswählen oder hierher ziehen',
    unchoose: 'Entfernen',
    unchooseNamed: '{{name}} entfernen',
    type: 'Typ',
    uploadButton: 'Hochladen',
    uploaded_ok: '„{{name}}“ wurde hochgeladen.',
    rule: 'Eine PDF-Datei von höchstens 3 MB. Ein Dokument mit gleichem Namen und Typ wird ersetzt.',
    notPdf: 'Die Datei muss eine PDF-Datei von höchstens 3 MB sein: „{{name}}“ ist keine PDF-Datei.',
    tooLarge: 'Die Datei muss eine PDF-Datei von höchstens 3 MB sein: „{{name}}“ hat {{size}}.',
    badName:
      'Der Dateiname „{{name}}“ ist nicht erlaubt: höchstens 255 Zeichen, ohne / \\ : * ? " < > | .. oder Steuerzeichen. Benennen Sie die Datei um und wählen Sie sie erneut.',
    gone: '„{{name}}“ ist nicht mehr vorhanden: Vielleicht hat jemand es gelöscht. Die Liste ist wieder aktuell.',
    serverRefused: 'Der Server hat die Datei abgelehnt: Sie muss eine PDF-Datei von höchstens 3 MB sein.',
    delete: 'Löschen',
    deleteTrigger: 'Löschen…',
    failed: 'Die Dokumente konnten nicht geladen werden.',
    noOrganisation: 'Wählen Sie zuerst eine Organisation.',
  },
};
