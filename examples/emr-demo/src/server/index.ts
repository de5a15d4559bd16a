export { startEmrDemo, DEMO_CLINICIAN, type EmrDemo, type EmrDemoOptions } from './emr-server.js';
export { demoSettings, startDemoBesideService, type DemoSettings, type ServiceBesideDemo } from './beside-service.js';
export { ChartStore, type FiledDocument, type FiledNote, type PatientChart, type Visit } from './chart-store.js';
export { PATIENTS } from './patients.js';
