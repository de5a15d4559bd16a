import { render } from 'preact';

import { BOOT_ELEMENT_ID, readBoot } from './boot.js';
import { HostChannel } from './host/host-channel.js';
import { microphoneInput, microphonePolicy, type PolicyDocument } from './controller/microphone-access.js';
import { WidgetController } from './controller/widget-controller.js';
import { App } from './ui/app.js';

const controller = new WidgetController({
  baseUrl: window.location.origin,
  boot: readBoot(window.location.search, document.getElementById(BOOT_ELEMENT_ID)?.textContent ?? null, Date.now()),
  host: (allowedOrigins) => new HostChannel({ self: window, parent: window.parent }, allowedOrigins),
  audio: microphoneInput,
  microphonePolicy: () => microphonePolicy(document as PolicyDocument),
  now: () => Date.now(),
  monotonicNow: () => performance.now(),
});

controller.setOnline(navigator.onLine);
window.addEventListener('online', () => controller.setOnline(true));
window.addEventListener('offline', () => controller.setOnline(false));

const root = document.getElementById('app');
if (root !== null) render(<App controller={controller} />, root);
void controller.start();
