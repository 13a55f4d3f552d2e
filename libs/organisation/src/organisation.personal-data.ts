import { personalData } from '#app/event-store';

/** The organisation's settings are its own, the people they name included (docs/privacy.md). */
personalData.organisation('organisation.SettingsChanged', ['changes.*']);
