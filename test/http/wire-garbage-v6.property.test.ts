/** Garbage from the wire never breaks a v6 call: the property of wire-garbage/run.ts, v6's half of the cases. */
import { wireGarbageProperty } from './wire-garbage/run.ts';

wireGarbageProperty('v6');
