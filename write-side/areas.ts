// The write side's one list of what its areas declare to the rest of the service: the personal
// data their events hold (sealed with each customer's key, shredded at erasure). An area whose
// events hold none adds nothing here.
import { customerPersonalData } from './customers/personal-data.js';
import { orderPersonalData } from './orders/personal-data.js';
import type { PersonalDataRule } from './personal-data/rules.js';

export const PERSONAL_DATA: readonly PersonalDataRule[] = [orderPersonalData, customerPersonalData];
