/** Garbage from the wire never breaks a v10 call: the property of wire-garbage.ts, v10's half of the cases. */
import { wireGarbageProperty } from './wire-garbage.ts';

wireGarbageProperty('v10');
