// The host the commands run on: the one place a command gets the real HostFs from (commands may
// not pick host/ implementations themselves).
export {nodeHostFs as hostFs} from '../host/node-host-fs.js'
