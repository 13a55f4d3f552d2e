import { personalData } from '#app/event-store';

/** The name a user's upload had on their machine (docs/privacy.md, "Sealed fields in the log"). */
personalData.declare<{ ownerId: number }>('files.FileUploaded', {
  owner: (d) => d.ownerId,
  fields: { originalName: '' },
});
