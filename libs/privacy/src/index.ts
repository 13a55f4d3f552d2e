export { PrivacyModule } from './privacy.module.js';
export { PrivacyHttpModule } from './privacy-http.module.js';
export { MANAGE_DATA_PROTECTION, type PersonalData, PersonalDataExport } from './export/personal-data-export.js';
