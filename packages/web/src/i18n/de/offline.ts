import type { Leaves } from '../en';
import type { offlineNamespaces as En } from '../en/offline';

/** German texts of offline use and updates: the same keys as the English ones. */
export const offlineNamespaces: Leaves<typeof En> = {
  offline: {
    banner: 'Sie sind offline.',
    shownSaved: 'Die angezeigten Daten wurden {{age}} gespeichert.',
    nothingSaved: 'Für diese Seite sind noch keine Daten für die Offline-Nutzung gespeichert.',
    actionsDisabled: 'Aktionen, die den Server brauchen, sind deaktiviert, bis die Verbindung zurück ist.',
    actionDisabled: 'Offline nicht verfügbar: Dafür wird der Server benötigt.',
    notSaved:
      'Diese Liste wurde nicht für die Offline-Nutzung gespeichert. Sie wird geladen, sobald die Verbindung zurück ist.',
    partlySaved:
      'Der Rest dieser Seite wurde nicht für die Offline-Nutzung gespeichert; er wird geladen, sobald die Verbindung zurück ist.',
    back: 'Sie sind wieder online. Die Daten werden aktualisiert.',
    justNow: 'gerade eben',
    updateAvailable: 'Eine neue Version des Portals ist verfügbar.',
    updateHelp:
      'Laden Sie die Seite neu, um sie zu verwenden. Ungespeicherte Eingaben auf dieser Seite gehen verloren.',
    reload: 'Neu laden',
    later: 'Später',
  },
};
