/** Garbage from the wire never breaks a v10 call: the property of wire-garbage/run.ts, v10's half of the cases. */
import { wireGarbageProperty } from './wire-garbage/run.ts';

wireGarbageProperty('v10');
