/** The methods the method pickers offer (a request can hold any other, typed under Other…). */
export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'QUERY'];
